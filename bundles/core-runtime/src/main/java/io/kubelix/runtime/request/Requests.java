package io.kubelix.runtime.request;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.eclipse.jetty.server.Request;

/** What the handler chain attaches to a request as it passes each filter. */
public final class Requests {
    private static final String REQUEST_INFO = "io.kubelix.requestInfo";
    private static final String USER = "io.kubelix.user";

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
}
