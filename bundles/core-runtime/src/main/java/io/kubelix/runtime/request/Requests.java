package io.kubelix.runtime.request;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.eclipse.jetty.server.Request;

/** What the handler chain attaches to a request as it passes each filter. */
public final class Requests {
    private static final String REQUEST_INFO = "io.kubelix.requestInfo";
    private static final String USER = "io.kubelix.user";
    private static final String TIMEOUT = "io.kubelix.timeout";

    private Requests() {
    }

    public static void setRequestInfo(Request request, RequestInfo info) {
        request.setAttribute(REQUEST_INFO, info);
    }

    /** The RequestInfo set by WithRequestInfo. */
    public static RequestInfo requestInfo(Request request) {
        return (RequestInfo) request.getAttribute(REQUEST_INFO);
    }

    public static void setUser(Request request, UserInfo user) {
        request.setAttribute(USER, user);
    }

    /** The user set by WithAuthentication, or null before it. */
    public static UserInfo user(Request request) {
        return (UserInfo) request.getAttribute(USER);
    }

    /** The time the request is given from its arrival (WithTimeout's deadline), for the filters inside it. */
    public static void setTimeout(Request request, java.time.Duration timeout) {
        request.setAttribute(TIMEOUT, timeout);
    }

    /** The time WithTimeout gives the request, or null for a request that has no deadline. */
    public static java.time.Duration timeout(Request request) {
        return (java.time.Duration) request.getAttribute(TIMEOUT);
    }
}
