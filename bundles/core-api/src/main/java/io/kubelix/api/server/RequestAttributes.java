package io.kubelix.api.server;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.eclipse.jetty.server.Request;

/**
 * What the handler chain has learnt of a request by the time it reaches the server chain, for
 * {@link DelegationTarget}s that serve it themselves (the aggregator's proxy): its parsed
 * RequestInfo and its authenticated user. The runtime sets them; plugins only read them.
 */
public final class RequestAttributes {
    /** The attribute holding the {@link RequestInfo} (k8s' WithRequestInfo). */
    public static final String REQUEST_INFO = "io.kubelix.requestInfo";
    /** The attribute holding the authenticated (and, when asked, impersonated) {@link UserInfo}. */
    public static final String USER = "io.kubelix.user";

    private RequestAttributes() {
    }

    /** The request's parsed RequestInfo, or null before the request info filter. */
    public static RequestInfo requestInfo(Request request) {
        return (RequestInfo) request.getAttribute(REQUEST_INFO);
    }

    /** The user the request acts as, or null before authentication. */
    public static UserInfo user(Request request) {
        return (UserInfo) request.getAttribute(USER);
    }
}
