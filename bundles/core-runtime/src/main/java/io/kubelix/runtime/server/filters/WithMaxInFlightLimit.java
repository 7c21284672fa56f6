package io.kubelix.runtime.server.filters;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.runtime.metrics.InflightWatermark;
import io.kubelix.runtime.metrics.RequestLabels;
import io.kubelix.runtime.metrics.RequestMetrics;
import io.kubelix.runtime.request.Requests;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.util.List;
import java.util.Set;
import java.util.concurrent.Semaphore;

/**
 * WithMaxInFlightLimit: at most {@code --max-requests-inflight} reads (get, list) and
 * {@code --max-mutating-requests-inflight} writes are served at once; one more is answered as
 * kube-apiserver answers it, 429 with {@code Retry-After: 1} and the plain-text body
 * {@code Too many requests, please try again later.}, and counted in {@code apiserver_request_total}
 * (code 429) and {@code apiserver_request_terminations_total}. Long-running requests (watches,
 * connections) are not limited, nor members of {@code system:masters}. A limit of 0 is no limit.
 * The use of each limit is {@code apiserver_current_inflight_requests}, the most in the last second.
 */
public final class WithMaxInFlightLimit extends Handler.Wrapper {
    private static final Set<String> NON_MUTATING = Set.of("get", "list", "watch");

    private final Limit readOnly;
    private final Limit mutating;
    private final RequestMetrics metrics;

    public WithMaxInFlightLimit(Handler next, int maxReadOnly, int maxMutating, RequestMetrics metrics,
                                InflightWatermark readOnlyUse, InflightWatermark mutatingUse) {
        super(next);
        this.readOnly = new Limit(maxReadOnly, readOnlyUse);
        this.mutating = new Limit(maxMutating, mutatingUse);
        this.metrics = metrics;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        RequestInfo info = Requests.requestInfo(request);
        RequestLabels labels = RequestLabels.of(info, request.getMethod(), null, List.of());
        Limit limit = NON_MUTATING.contains(info.verb()) ? readOnly : mutating;
        if (labels.longRunning() || limit.max == 0) {
            return super.handle(request, response, callback);
        }
        if (!limit.tryAcquire()) {
            UserInfo user = Requests.user(request);
            if (user != null && user.groups().contains(UserInfo.SYSTEM_PRIVILEGED_GROUP)) {
                return super.handle(request, response, callback);
            }
            metrics.dropped(labels);
            metrics.terminated(labels, 429);
            TooManyRequests.write(response, callback, "1");
            return true;
        }
        return TooManyRequests.serveInSeat(getHandler(), request, response, callback, limit::release, false);
    }

    /** One kind's seats and their use. */
    private static final class Limit {
        final int max;
        final Semaphore seats;
        final InflightWatermark use;

        Limit(int max, InflightWatermark use) {
            this.max = max;
            this.seats = new Semaphore(Math.max(max, 0));
            this.use = use;
        }

        boolean tryAcquire() {
            if (!seats.tryAcquire()) {
                return false;
            }
            use.record(max - seats.availablePermits());
            return true;
        }

        void release() {
            seats.release();
            use.record(max - seats.availablePermits());
        }
    }
}
