package io.kubelix.runtime.request;

import io.kubelix.api.request.RequestInfo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Parses a request's method, path and {@code watch} parameter into a RequestInfo, as k8s'
 * RequestInfoFactory: {@code /api/v1/namespaces/ns/configmaps/name/sub} and
 * {@code /apis/group/version/...}; anything else is a non-resource request.
 */
public final class RequestInfoFactory {
    private static final Set<String> API_PREFIXES = Set.of("api", "apis");
    private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

    private RequestInfoFactory() {
    }

    /**
     * @param method     the HTTP method
     * @param path       the decoded request path (Jetty has already decoded and normalised it)
     * @param watchParam the value of the {@code watch} query parameter, or null
     */
    public static RequestInfo newRequestInfo(String method, String path, String watchParam) {
        String nonResourceVerb = method.toLowerCase(Locale.ROOT);
        List<String> parts = splitPath(path);
        if (parts.size() < 3 || !API_PREFIXES.contains(parts.get(0))) {
            return nonResource(path, nonResourceVerb);
        }
        String apiPrefix = parts.get(0);
        List<String> current = parts.subList(1, parts.size());
        String group = "";
        if (apiPrefix.equals("apis")) {
            if (current.size() < 2) {
                return nonResource(path, nonResourceVerb);
            }
            group = current.get(0);
            current = current.subList(1, current.size());
        }
        String version = current.get(0);
        current = current.subList(1, current.size());
        if (current.isEmpty()) {
            return nonResource(path, nonResourceVerb);
        }

        String verb = switch (method) {
            case "POST" -> "create";
            case "GET", "HEAD" -> "get";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> "delete";
            default -> "";
        };
        // The deprecated /watch/ path prefix.
        if (current.get(0).equals("watch")) {
            current = current.subList(1, current.size());
            verb = "watch";
            if (current.isEmpty()) {
                return nonResource(path, nonResourceVerb);
            }
        }

        String namespace = "";
        if (current.get(0).equals("namespaces") && current.size() > 1) {
            namespace = current.get(1);
            if (current.size() > 2 && !NAMESPACE_SUBRESOURCES.contains(current.get(2))) {
                current = current.subList(2, current.size());
            }
        }

        String resource = current.get(0);
        String name = current.size() >= 2 ? current.get(1) : "";
        String subresource = current.size() >= 3 ? current.get(2) : "";

        if (name.isEmpty() && verb.equals("get")) {
            verb = isTrue(watchParam) ? "watch" : "list";
        }
        if (name.isEmpty() && verb.equals("delete")) {
            verb = "deletecollection";
        }
        return new RequestInfo(true, path, verb, apiPrefix, group, version, namespace, resource, subresource, name,
                new ArrayList<>(current));
    }

    /**
     * A boolean query parameter as apimachinery converts every one (Convert_Slice_string_To_bool):
     * absent is false, and any value but "0" and "false" (in any case), even an empty one, is true.
     */
    public static boolean isTrue(String queryValue) {
        return queryValue != null && !queryValue.equals("0") && !queryValue.equalsIgnoreCase("false");
    }

    private static RequestInfo nonResource(String path, String verb) {
        return new RequestInfo(false, path, verb, "", "", "", "", "", "", "", List.of());
    }

    private static List<String> splitPath(String path) {
        String trimmed = path;
        while (trimmed.startsWith("/")) {
            trimmed = trimmed.substring(1);
        }
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        if (trimmed.isEmpty()) {
            return List.of();
        }
        return Arrays.asList(trimmed.split("/"));
    }
}
