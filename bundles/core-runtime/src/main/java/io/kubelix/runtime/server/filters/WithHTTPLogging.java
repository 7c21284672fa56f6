package io.kubelix.runtime.server.filters;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.runtime.metrics.RequestLabels;
import io.kubelix.runtime.request.Requests;
import io.kubelix.support.time.GoDuration;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * WithHTTPLogging: one line per request when it ends, as kube-apiserver's httplog writes it at
 * {@code -v=3} (here DEBUG on the {@code io.kubelix.httplog} logger): {@code "HTTP"} with
 * {@code verb} (as the request metrics name it: LIST, WATCH, APPLY, ...), {@code URI},
 * {@code latency} in Go's notation, {@code userAgent}, {@code audit-ID}, {@code srcIP} and
 * {@code resp} (the status code), or {@code hijacked=true} for a connection upgraded to another
 * protocol. Off, it costs one level check per request.
 */
public final class WithHTTPLogging extends Handler.Wrapper {
    private static final Logger LOG = LoggerFactory.getLogger("io.kubelix.httplog");

    public WithHTTPLogging(Handler next) {
        super(next);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (!LOG.isDebugEnabled()) {
            return super.handle(request, response, callback);
        }
        Callback logged = new Callback.Nested(callback) {
            @Override
            public void succeeded() {
                log(request, response.getStatus());
                super.succeeded();
            }

            @Override
            public void failed(Throwable x) {
                log(request, response.isCommitted() ? response.getStatus() : 500);
                super.failed(x);
            }
        };
        try {
            if (!super.handle(request, response, logged)) {
                log(request, 404);
                return false;
            }
            return true;
        } catch (Throwable t) {
            // The outer filters answer it, with the exception's code.
            log(request, t instanceof StatusException s ? s.code() : 500);
            throw t;
        }
    }

    private static void log(Request request, int status) {
        RequestInfo info = Requests.requestInfo(request);
        String verb = request.getMethod();
        if (info != null) {
            Fields.Field dryRun = Request.extractQueryParameters(request).get("dryRun");
            verb = RequestLabels.of(info, verb, request.getHeaders().get(HttpHeader.CONTENT_TYPE),
                    dryRun == null ? List.of() : dryRun.getValues()).verb();
        }
        String userAgent = request.getHeaders().get(HttpHeader.USER_AGENT);
        var line = LOG.atDebug().setMessage("HTTP")
                .addKeyValue("verb", verb)
                .addKeyValue("URI", request.getHttpURI().getPathQuery())
                .addKeyValue("latency", GoDuration.format(System.nanoTime() - request.getBeginNanoTime()))
                .addKeyValue("userAgent", userAgent == null ? "" : userAgent)
                .addKeyValue("audit-ID", String.valueOf(WithAuditInit.auditID(request)))
                .addKeyValue("srcIP", Request.getRemoteAddr(request) + ":" + Request.getRemotePort(request));
        if (status == 101) {
            line.addKeyValue("hijacked", true).log();
        } else {
            line.addKeyValue("resp", status).log();
        }
    }
}
