package io.kubelix.runtime.server;

import io.kubelix.api.errors.StatusException;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import io.kubelix.runtime.endpoints.responsewriters.StatusObjects;
import io.kubelix.runtime.server.filters.WithPanicRecovery;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors Jetty answers before any handler runs (an ambiguous or malformed URI, a bad header)
 * are written as metav1.Status objects too, so every client sees one error format.
 */
final class StatusErrorHandler extends ErrorHandler {

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int code = response.getStatus() > 0 ? response.getStatus() : 500;
        Object message = request.getAttribute(ERROR_MESSAGE);
        String text = message != null ? message.toString() : HttpStatus.getMessage(code);
        StatusException e = WithPanicRecovery.status(code, text);
        Responses.write(response, callback, code, "application/json",
                io.kubelix.runtime.codec.Codecs.toJson(StatusObjects.failure(e)));
        return true;
    }
}
