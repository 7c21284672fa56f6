package io.kubelix.resource.core.config;

import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;

import java.util.List;

/** Request contexts for strategy tests: what a strategy sees of a client's request. */
final class TestContexts {
    private TestContexts() {
    }

    /** A client's {@code verb} on {@code resource} in namespace {@code ns}, as the server's own user. */
    static RequestContext request(String verb, String resource) {
        RequestContext system = RequestContext.system("ns");
        RequestInfo info = new RequestInfo(true, "/api/v1/namespaces/ns/" + resource, verb, "api", "", "v1", "ns",
                resource, "", "", List.of(resource));
        return new RequestContext() {
            @Override
            public UserInfo user() {
                return system.user();
            }

            @Override
            public RequestInfo requestInfo() {
                return info;
            }

            @Override
            public String namespace() {
                return "ns";
            }

            @Override
            public void addWarning(String message) {
            }
        };
    }
}
