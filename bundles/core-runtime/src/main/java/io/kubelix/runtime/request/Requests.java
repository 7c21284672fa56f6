package io.kubelix.runtime.request;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.api.server.RequestAttributes;
import org.eclipse.jetty.server.Request;

/** What the handler chain attaches to a request as it passes each filter. */
public final class Requests {
    private static final String REQUEST_INFO = RequestAttributes.REQUEST_INFO;
    private static final String USER = RequestAttributes.USER;

    private Requests() {
    }

    public static void setRequestInfo(Request request, RequestInfo info) {
        request.setAttribute(REQUEST_INFO, info);
    }

    /** The RequestInfo set by WithRequestInfo. */
    public static RequestInfo requestInfo(Request request) {
        return RequestAttributes.requestInfo(request);
    }

    public static void setUser(Request request, UserInfo user) {
        request.setAttribute(USER, user);
    }

    /** The user set by WithAuthentication, or null before it. */
    public static UserInfo user(Request request) {
        return RequestAttributes.user(request);
    }
}
