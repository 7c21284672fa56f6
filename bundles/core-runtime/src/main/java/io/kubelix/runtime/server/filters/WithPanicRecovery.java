package io.kubelix.runtime.server.filters;

import io.kubelix.api.errors.StatusException;
import io.kubelix.runtime.endpoints.Responses;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The outermost filter (WithPanicRecovery): whatever escapes the chain becomes a Status. A
 * StatusException is the client's answer; anything else is logged and answered 500
 * InternalError, or, when the response is already committed, the stream is aborted.
 */
public final class WithPanicRecovery extends Handler.Wrapper {
    private static final Logger LOG = LoggerFactory.getLogger(WithPanicRecovery.class);

    public WithPanicRecovery(Handler next) {
        super(next);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        try {
            if (!super.handle(request, response, callback)) {
                throw new IllegalStateException("no handler took the request");
            }
        } catch (StatusException e) {
            if (response.isCommitted()) {
                callback.failed(e);
            } else {
                Responses.writeStatus(request, response, callback, e);
            }
        } catch (Throwable t) {
            LOG.error("{} {}: request failed: {}", request.getMethod(), request.getHttpURI().getPathQuery(), t.toString(), t);
            if (response.isCommitted()) {
                callback.failed(t);
            } else {
                Responses.writeStatus(request, response, callback,
                        StatusException.internalError("an unexpected error occurred on the server; see the server log", t));
            }
        }
        return true;
    }
}
