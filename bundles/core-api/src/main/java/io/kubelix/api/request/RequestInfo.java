package io.kubelix.api.request;

import java.util.List;

/**
 * What a request is about, parsed once from its method and path (k8s' RequestInfo).
 *
 * @param resourceRequest true for requests on API resources, false for {@code /healthz}, discovery, ...
 * @param path            the request path
 * @param verb            get, list, watch, create, update, patch, delete, deletecollection; for
 *                        non-resource requests the lower-cased HTTP method
 * @param apiPrefix       {@code api} or {@code apis}, or empty
 * @param apiGroup        the group, empty for the core group
 * @param apiVersion      the version, or empty
 * @param namespace       the namespace, or empty
 * @param resource        the resource, or empty
 * @param subresource     the subresource ({@code status}), or empty
 * @param name            the object's name, or empty
 * @param parts           the path segments after the group version
 */
public record RequestInfo(boolean resourceRequest, String path, String verb, String apiPrefix, String apiGroup,
                          String apiVersion, String namespace, String resource, String subresource, String name,
                          List<String> parts) {
    public RequestInfo {
        parts = List.copyOf(parts);
    }
}
