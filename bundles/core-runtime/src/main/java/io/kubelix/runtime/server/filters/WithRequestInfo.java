package io.kubelix.runtime.server.filters;

import io.kubelix.runtime.request.RequestInfoFactory;
import io.kubelix.runtime.request.Requests;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** WithRequestInfo: parses the RequestInfo once, for every later filter and handler. */
public final class WithRequestInfo extends Handler.Wrapper {

    public WithRequestInfo(Handler next) {
        super(next);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String watch = Request.extractQueryParameters(request).getValue("watch");
        Requests.setRequestInfo(request,
                RequestInfoFactory.newRequestInfo(request.getMethod(), Request.getPathInContext(request), watch));
        return super.handle(request, response, callback);
    }
}
