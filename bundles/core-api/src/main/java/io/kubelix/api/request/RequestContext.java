package io.kubelix.api.request;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The request a storage or strategy call is made for (k8s' request context): who asks, about
 * what, and where to put warnings for the client.
 */
@ProviderType
public interface RequestContext {

    /** The authenticated user; a system user for the server's own calls. */
    UserInfo user();

    /** The parsed request, or null for calls the server makes on its own. */
    RequestInfo requestInfo();

    /** The namespace the request is in, or empty. */
    String namespace();

    /** Adds a warning sent to the client as a {@code Warning: 299 - "..."} header. */
    void addWarning(String message);

    /**
     * Adds an annotation to the request's audit events (kube's {@code Attributes.AddAnnotation}), as
     * admission plugins record what they decided; a key already set keeps its first value. Dropped
     * when the request is not audited.
     *
     * @since 1.1
     */
    default void addAuditAnnotation(String key, String value) {
    }

    /**
     * A context for the server's own calls (bootstrap objects, controllers): the user
     * {@code system:apiserver} in {@code system:masters}; warnings are dropped.
     */
    static RequestContext system(String namespace) {
        UserInfo apiserver = new UserInfo("system:apiserver", "", java.util.List.of(UserInfo.SYSTEM_PRIVILEGED_GROUP,
                UserInfo.ALL_AUTHENTICATED), java.util.Map.of());
        String ns = namespace == null ? "" : namespace;
        return new RequestContext() {
            @Override
            public UserInfo user() {
                return apiserver;
            }

            @Override
            public RequestInfo requestInfo() {
                return null;
            }

            @Override
            public String namespace() {
                return ns;
            }

            @Override
            public void addWarning(String message) {
            }
        };
    }
}
