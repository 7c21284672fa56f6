package io.kubelix.api.request;

import java.util.List;
import java.util.Map;

/**
 * An authenticated user (user.Info).
 *
 * @param name   the user name, such as {@code kubelix-admin}
 * @param uid    a unique id, or empty
 * @param groups the groups the user belongs to; authenticators add {@code system:authenticated}
 * @param extra  additional attributes
 */
public record UserInfo(String name, String uid, List<String> groups, Map<String, List<String>> extra) {
    public static final String ALL_AUTHENTICATED = "system:authenticated";
    public static final String ALL_UNAUTHENTICATED = "system:unauthenticated";
    public static final String ANONYMOUS = "system:anonymous";
    public static final String SYSTEM_PRIVILEGED_GROUP = "system:masters";

    public UserInfo {
        uid = uid == null ? "" : uid;
        groups = List.copyOf(groups);
        extra = Map.copyOf(extra);
    }
}
