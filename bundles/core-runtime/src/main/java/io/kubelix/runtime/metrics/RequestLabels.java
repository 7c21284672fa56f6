package io.kubelix.runtime.metrics;

import io.kubelix.api.request.RequestInfo;

import java.util.Set;
import java.util.TreeSet;

/**
 * The labels kube-apiserver's endpoint metrics give a request (endpoints/metrics' CleanScope,
 * CanonicalVerb, CleanVerb and cleanDryRun): the verb is the upper-case HTTP method made LIST for a
 * collection GET, WATCH for a watch, APPLY for a server-side apply, CONNECT for a connect subresource.
 *
 * @param verb        the reported verb
 * @param dryRun      "" without {@code dryRun}, {@code All}, or {@code invalid}
 * @param scope       {@code resource}, {@code namespace}, {@code cluster}, or "" for a non-resource path
 * @param subresource the subresource, or a non-resource request's path
 */
public record RequestLabels(String verb, String dryRun, String group, String version, String resource,
                            String subresource, String scope) {
    private static final Set<String> CONNECT_SUBRESOURCES = Set.of("proxy", "exec", "attach", "portforward");
    private static final Set<String> VALID_VERBS = Set.of("APPLY", "CONNECT", "CREATE", "DELETE", "DELETECOLLECTION",
            "GET", "LIST", "PATCH", "POST", "PROXY", "PUT", "UPDATE", "WATCH", "WATCHLIST");

    /** The labels of a request with this method, Content-Type and dryRun query parameter values. */
    public static RequestLabels of(RequestInfo info, String method, String contentType, Iterable<String> dryRun) {
        String scope = scope(info);
        String verb = method.toUpperCase(java.util.Locale.ROOT);
        if ((verb.equals("GET") || verb.equals("HEAD")) && !scope.equals("resource") && !scope.isEmpty()) {
            verb = "LIST";
        } else if (verb.equals("HEAD")) {
            verb = "GET";
        }
        if (info.verb().equals("watch") || info.verb().equals("watchlist")) {
            verb = "WATCH";
        }
        if (verb.equals("PATCH") && contentType != null && contentType.startsWith("application/apply-patch+yaml")) {
            verb = "APPLY";
        }
        if (info.resourceRequest() && CONNECT_SUBRESOURCES.contains(info.subresource())) {
            verb = "CONNECT";
        }
        if (!VALID_VERBS.contains(verb)) {
            verb = "other";
        }
        if (info.resourceRequest()) {
            return new RequestLabels(verb, dryRun(dryRun), info.apiGroup(), info.apiVersion(), info.resource(),
                    info.subresource(), scope);
        }
        return new RequestLabels(verb, dryRun(dryRun), "", "", "", info.path(), scope);
    }

    /** Long-running requests: watches and connections (kube's default --long-running-request-regexp). */
    public boolean longRunning() {
        return verb.equals("WATCH") || verb.equals("CONNECT");
    }

    static String scope(RequestInfo info) {
        if (!info.name().isEmpty() || info.verb().equals("create")) {
            return "resource";
        }
        if (!info.namespace().isEmpty()) {
            return "namespace";
        }
        return info.resourceRequest() ? "cluster" : "";
    }

    private static String dryRun(Iterable<String> values) {
        TreeSet<String> set = new TreeSet<>();
        for (String v : values) {
            if (!v.equals("All")) {
                return "invalid";
            }
            set.add(v);
        }
        return String.join(",", set);
    }
}
