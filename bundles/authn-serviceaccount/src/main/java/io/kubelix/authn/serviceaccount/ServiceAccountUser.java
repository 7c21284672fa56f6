package io.kubelix.authn.serviceaccount;

import io.kubelix.api.request.UserInfo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's serviceaccount.UserInfo: the user a service account token authenticates as, with
 * {@code system:authenticated}, which here each authenticator adds (kube's union authenticator does).
 */
final class ServiceAccountUser {
    static final String PREFIX = "system:serviceaccount:";
    static final String ALL_GROUP = "system:serviceaccounts";
    static final String CREDENTIAL_ID = "authentication.kubernetes.io/credential-id";
    static final String POD_NAME = "authentication.kubernetes.io/pod-name";
    static final String POD_UID = "authentication.kubernetes.io/pod-uid";

    private ServiceAccountUser() {
    }

    static String userName(String namespace, String name) {
        return PREFIX + namespace + ":" + name;
    }

    /**
     * @param pod the bound pod's name and uid, or null
     * @param jti the token's {@code jti}, or empty
     */
    static UserInfo of(String namespace, String name, String uid, String[] pod, String jti) {
        Map<String, List<String>> extra = new LinkedHashMap<>();
        if (pod != null) {
            extra.put(POD_NAME, List.of(pod[0]));
            extra.put(POD_UID, List.of(pod[1]));
        }
        if (!jti.isEmpty()) {
            extra.put(CREDENTIAL_ID, List.of("JTI=" + jti));
        }
        return new UserInfo(userName(namespace, name), uid, List.of(ALL_GROUP, ALL_GROUP + ":" + namespace, UserInfo.ALL_AUTHENTICATED), extra);
    }
}
