package io.kubelix.runtime.endpoints;

import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;

import java.util.ArrayList;
import java.util.List;

/** The RequestContext of an HTTP request; warnings are collected and sent as headers with the response. */
final class HttpRequestContext implements RequestContext {
    private final UserInfo user;
    private final RequestInfo requestInfo;
    private final String namespace;
    private final List<String> warnings = new ArrayList<>();

    HttpRequestContext(UserInfo user, RequestInfo requestInfo, String namespace) {
        this.user = user;
        this.requestInfo = requestInfo;
        this.namespace = namespace;
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

    synchronized List<String> warnings() {
        return List.copyOf(warnings);
    }
}
