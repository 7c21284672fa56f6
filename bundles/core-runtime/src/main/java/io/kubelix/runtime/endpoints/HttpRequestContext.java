package io.kubelix.runtime.endpoints;

import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * The RequestContext of an HTTP request; warnings are collected and sent as headers with the
 * response, audit annotations go to the request's audit events.
 */
final class HttpRequestContext implements RequestContext {
    private final UserInfo user;
    private final RequestInfo requestInfo;
    private final String namespace;
    private final List<String> warnings = new ArrayList<>();
    /** Adds an annotation to the request's audit events. */
    private final BiConsumer<String, String> auditAnnotations;

    HttpRequestContext(UserInfo user, RequestInfo requestInfo, String namespace) {
        this(user, requestInfo, namespace, (k, v) -> { });
    }

    HttpRequestContext(UserInfo user, RequestInfo requestInfo, String namespace,
                       BiConsumer<String, String> auditAnnotations) {
        this.user = user;
        this.requestInfo = requestInfo;
        this.namespace = namespace;
        this.auditAnnotations = auditAnnotations;
    }

    @Override
    public UserInfo user() {
        return user;
    }

    @Override
    public RequestInfo requestInfo() {
        return requestInfo;
    }

    @Override
    public String namespace() {
        return namespace;
    }

    @Override
    public synchronized void addWarning(String message) {
        if (!warnings.contains(message)) {
            warnings.add(message);
        }
    }

    @Override
    public void addAuditAnnotation(String key, String value) {
        auditAnnotations.accept(key, value);
    }

    synchronized List<String> warnings() {
        return List.copyOf(warnings);
    }
}
