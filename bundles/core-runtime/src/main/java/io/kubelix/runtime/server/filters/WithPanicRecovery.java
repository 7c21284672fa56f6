package io.kubelix.runtime.server.filters;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.EofException;
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
            StatusException clientError = clientError(t);
            if (clientError != null) {
                // What the client sent could not be read (a malformed chunk, a bad escape): its error, not the server's.
                LOG.debug("{} {}: {}", request.getMethod(), request.getHttpURI().getPathQuery(), clientError.getMessage());
                if (response.isCommitted()) {
                    callback.failed(t);
                } else {
                    Responses.writeStatus(request, response, callback, clientError);
                }
                return true;
            }
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

    /** The Status of an HTTP error code Jetty chose, with the kube reason of that code. */
    public static StatusException status(int code, String message) {
        StatusReason reason = code >= 500 ? StatusReason.INTERNAL_ERROR : StatusReason.BAD_REQUEST;
        for (StatusReason r : StatusReason.values()) {
            if (r.code() == code) {
                reason = r;
                break;
            }
        }
        return new StatusException(reason, code, message, null, null);
    }

    /**
     * The 4xx Status of a failure Jetty found in what the client sent, or of a client that went away
     * (in the cause chain), or null.
     */
    private static StatusException clientError(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof EofException) {
                return StatusException.badRequest("the client closed the connection before the request was read");
            }
            if (c instanceof HttpException e && e.getCode() >= 400 && e.getCode() < 500) {
                return status(e.getCode(), e.getReason() != null ? e.getReason() : HttpStatus.getMessage(e.getCode()));
            }
        }
        return null;
    }
}
