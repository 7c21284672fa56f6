package io.kubelix.runtime.server.filters;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import io.kubelix.runtime.metrics.RequestLabels;
import io.kubelix.runtime.metrics.RequestMetrics;
import io.kubelix.runtime.request.Requests;
import io.kubelix.support.time.GoDuration;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * WithRequestDeadline and WithTimeoutForNonLongRunningRequests: a request other than a watch or a
 * connection that has not begun its answer within its time is answered as kube-apiserver answers it,
 * 504 with a {@code Timeout} Status ("Timeout: request did not complete within the allotted
 * timeout"), and counted in {@code apiserver_request_terminations_total}. Its handler goes on, but
 * what it writes afterwards is dropped. An answer already begun is left to finish.
 *
 * <p>Its time runs from its arrival: {@code --request-timeout} (60 s), or the shorter time the client
 * asks for with the {@code timeout} query parameter in Go's duration syntax (what
 * {@code kubectl --request-timeout} sends); {@code 0} or a longer time asks for the server's.
 * A {@code timeout} that does not parse is a 400, as kube's. The time is left on the request
 * ({@link Requests#timeout}) for the filters inside, as kube's request context deadline.
 */
public final class WithTimeout extends Handler.Wrapper {
    static final String MESSAGE = "Timeout: request did not complete within the allotted timeout";
    static final String INVALID_TIMEOUT = "invalid timeout specified in the request URL";

    private final Duration timeout;
    private final RequestMetrics metrics;

    public WithTimeout(Handler next, Duration timeout, RequestMetrics metrics) {
        super(next);
        this.timeout = timeout;
        this.metrics = metrics;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        RequestInfo info = Requests.requestInfo(request);
        RequestLabels labels = RequestLabels.of(info, request.getMethod(), null, List.of());
        if (labels.longRunning()) {
            return super.handle(request, response, callback);
        }
        Duration timeout = requestTimeout(request);
        if (timeout.isZero()) {
            return super.handle(request, response, callback);
        }
        Requests.setTimeout(request, timeout);
        long left = timeout.toNanos() - (System.nanoTime() - request.getBeginNanoTime());
        AtomicBoolean answered = new AtomicBoolean();
        TimingOutResponse guarded = new TimingOutResponse(request, response);
        Scheduler.Task timer = request.getComponents().getScheduler().schedule(() -> {
            if (guarded.timeOut() && answered.compareAndSet(false, true)) {
                metrics.terminated(labels, 504);
                Responses.writeStatus(request, response, callback, new StatusException(StatusReason.TIMEOUT, 504, MESSAGE,
                        new StatusException.Details(null, null, null, List.of(), 0), null));
            }
        }, Math.max(0, left), TimeUnit.NANOSECONDS);
        Callback once = new Callback.Nested(callback) {
            @Override
            public void succeeded() {
                timer.cancel();
                if (answered.compareAndSet(false, true)) {
                    super.succeeded();
                }
            }

            @Override
            public void failed(Throwable x) {
                timer.cancel();
                if (answered.compareAndSet(false, true)) {
                    super.failed(x);
                }
            }
        };
        try {
            if (super.handle(request, guarded, once)) {
                return true;
            }
            timer.cancel();
            return false;
        } catch (Throwable t) {
            timer.cancel();
            if (answered.compareAndSet(false, true)) {
                // The outer filters answer it with the original callback.
                throw t;
            }
            return true;
        }
    }

    /** The server's timeout, or the shorter one the request asks for; zero for none. */
    private Duration requestTimeout(Request request) {
        String query = request.getHttpURI().getQuery();
        if (query == null || !query.contains("timeout=")) {
            return timeout;
        }
        String given = Request.extractQueryParameters(request).getValue("timeout");
        if (given == null || given.isEmpty()) {
            return timeout;
        }
        Duration asked;
        try {
            asked = GoDuration.parse(given);
        } catch (IllegalArgumentException e) {
            throw StatusException.badRequest(INVALID_TIMEOUT + " - " + e.getMessage());
        }
        if (asked.isNegative() || asked.isZero() || !timeout.isZero() && asked.compareTo(timeout) >= 0) {
            return timeout;
        }
        return asked;
    }

    /** The response as the handler sees it: once timed out, its writes fail and change nothing. */
    private static final class TimingOutResponse extends Response.Wrapper {
        private boolean writing;
        private boolean timedOut;

        TimingOutResponse(Request request, Response wrapped) {
            super(request, wrapped);
        }

        /** Times the request out unless its answer has begun; whether it did. */
        synchronized boolean timeOut() {
            if (writing || getWrapped().isCommitted()) {
                return false;
            }
            timedOut = true;
            return true;
        }

        @Override
        public void write(boolean last, ByteBuffer content, Callback callback) {
            synchronized (this) {
                if (timedOut) {
                    callback.failed(new TimeoutException("the request timed out"));
                    return;
                }
                writing = true;
            }
            super.write(last, content, callback);
        }

        @Override
        public void setStatus(int code) {
            synchronized (this) {
                if (timedOut) {
                    return;
                }
            }
            super.setStatus(code);
        }
    }
}
