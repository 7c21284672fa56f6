package io.kubelix.runtime.server.filters;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.runtime.metrics.RequestLabels;
import io.kubelix.runtime.metrics.RequestMetrics;
import io.kubelix.runtime.request.Requests;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

import java.util.List;

/**
 * Records each API request that reached its handler in kube-apiserver's endpoint metrics
 * ({@code apiserver_request_total}, {@code apiserver_request_duration_seconds} from the moment the
 * request arrived, {@code apiserver_response_sizes} for GET and LIST), as kube's InstrumentRouteFunc
 * does, and counts open watches and connections in {@code apiserver_longrunning_requests}. Requests
 * refused by authentication or authorization are not counted, as in kube.
 */
public final class WithRequestMetrics extends Handler.Wrapper {
    private final RequestMetrics metrics;

    public WithRequestMetrics(Handler next, RequestMetrics metrics) {
        super(next);
        this.metrics = metrics;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        RequestInfo info = Requests.requestInfo(request);
        if (!info.resourceRequest()) {
            return super.handle(request, response, callback);
        }
        Fields.Field dryRun = Request.extractQueryParameters(request).get("dryRun");
        RequestLabels labels = RequestLabels.of(info, request.getMethod(),
                request.getHeaders().get(HttpHeader.CONTENT_TYPE), dryRun == null ? List.of() : dryRun.getValues());
        RequestMetrics.InFlight recording = metrics.begin(labels, request.getBeginNanoTime());
        Callback recorded = new Callback.Nested(callback) {
            @Override
            public void succeeded() {
                recording.done(response.getStatus(), Response.getContentBytesWritten(response));
                super.succeeded();
            }

            @Override
            public void failed(Throwable x) {
                recording.done(response.isCommitted() ? response.getStatus() : codeOf(x),
                        Response.getContentBytesWritten(response));
                super.failed(x);
            }
        };
        try {
            if (super.handle(request, response, recorded)) {
                return true;
            }
            recording.done(404, 0);
            return false;
        } catch (Throwable t) {
            // The outer filters answer it; its code is the exception's.
            recording.done(codeOf(t), 0);
            throw t;
        }
    }

    private static int codeOf(Throwable t) {
        return t instanceof StatusException s ? s.code() : 500;
    }
}
