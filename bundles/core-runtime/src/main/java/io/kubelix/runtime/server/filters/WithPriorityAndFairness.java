package io.kubelix.runtime.server.filters;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.runtime.flowcontrol.PriorityAndFairness;
import io.kubelix.runtime.flowcontrol.QueueSet;
import io.kubelix.runtime.flowcontrol.RequestDigest;
import io.kubelix.runtime.flowcontrol.WorkEstimate;
import io.kubelix.runtime.metrics.RequestLabels;
import io.kubelix.runtime.metrics.RequestMetrics;
import io.kubelix.runtime.request.Requests;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

import java.util.List;
import java.util.Map;

/**
 * WithPriorityAndFairness (kube's {@code --enable-priority-and-fairness}, in the place of
 * WithMaxInFlightLimit): classifies each request by the FlowSchemas, names the schema and level in
 * the {@code X-Kubernetes-PF-FlowSchema-UID} and {@code X-Kubernetes-PF-PriorityLevel-UID} response
 * headers, and serves it once its level's {@link QueueSet} gives it the seats kube's work estimator
 * asks for. A request that cannot
 * queue, or waits past the wait limit, is answered as kube answers it: 429 with the {@code Retry-After}
 * its level's recent refusals give ({@link io.kubelix.runtime.flowcontrol.DroppedRequestsTracker}).
 * A queued request holds no thread (as Jetty's QoSHandler suspends one): it is resumed on the
 * request's executor, behind a WithPanicRecovery of its own since the outer filters have returned.
 * One whose client goes away while it waits leaves its queue and is never served.
 *
 * <p>Long-running requests other than watches (exec, attach, port-forward, proxy) are not counted.
 * A watch holds its seat while it is set up, its initial state taken and its stream started, as
 * kube holds one until the watch is initialized, and not while it streams.
 */
public final class WithPriorityAndFairness extends Handler.Wrapper {
    static final String FLOW_SCHEMA_UID = "X-Kubernetes-PF-FlowSchema-UID";
    static final String PRIORITY_LEVEL_UID = "X-Kubernetes-PF-PriorityLevel-UID";
    private static final String OUTCOME = WithPriorityAndFairness.class.getName() + ".outcome";
    private static final String LEVEL = WithPriorityAndFairness.class.getName() + ".level";

    private final PriorityAndFairness apf;
    private final RequestMetrics metrics;
    /** Serves a request resumed from a queue, its failures answered as the outermost filter answers them. */
    private final Handler resumed = new WithPanicRecovery(new Handler.Abstract() {
        @Override
        public boolean handle(Request request, Response response, Callback callback) throws Exception {
            return serve(request, response, callback, (QueueSet.Outcome) request.getAttribute(OUTCOME),
                    (String) request.getAttribute(LEVEL));
        }
    });

    public WithPriorityAndFairness(Handler next, PriorityAndFairness apf, RequestMetrics metrics) {
        super(next);
        this.apf = apf;
        this.metrics = metrics;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        RequestInfo info = Requests.requestInfo(request);
        if (RequestLabels.of(info, request.getMethod(), null, List.of()).longRunning() && !info.verb().equals("watch")) {
            return super.handle(request, response, callback);
        }
        UserInfo user = Requests.user(request);
        if (user == null) {
            user = new UserInfo(UserInfo.ANONYMOUS, "", List.of(UserInfo.ALL_UNAUTHENTICATED), Map.of());
        }
        RequestDigest digest = new RequestDigest(info, user);
        PriorityAndFairness.Classification c = apf.classify(digest);
        response.getHeaders().put(FLOW_SCHEMA_UID, c.flowSchemaUID());
        response.getHeaders().put(PRIORITY_LEVEL_UID, c.priorityLevelUID());
        Fields query = info.verb().equals("list") || info.verb().equals("watch")
                ? Request.extractQueryParameters(request) : Fields.EMPTY;
        WorkEstimate estimate = apf.estimateWork(c, digest, query::getValue);
        Callback done = callback;
        QueueSet.Outcome now = c.queues().acquire(c.flowSchema(), c.distinguisher(), digest, estimate,
                apf.requestWaitLimit(Requests.timeout(request)), request.getContext(), outcome -> {
                    request.setAttribute(OUTCOME, outcome);
                    request.setAttribute(LEVEL, c.priorityLevel());
                    try {
                        resumed.handle(request, response, done);
                    } catch (Exception e) {
                        // WithPanicRecovery answers every failure; nothing is left to throw.
                        done.failed(e);
                    }
                });
        if (now.queued()) {
            // A client that goes away (a reset stream, a closed or idle connection) leaves its queue at once.
            request.addFailureListener(x -> {
                if (c.queues().cancel(now.waiting())) {
                    done.failed(x);
                }
            });
            return true;
        }
        return serve(request, response, done, now, c.priorityLevel());
    }

    /**
     * Serves the request in its seat, or refuses it. A failure is answered by the outer filters, or
     * by the resumed request's WithPanicRecovery.
     */
    private boolean serve(Request request, Response response, Callback callback, QueueSet.Outcome outcome,
                          String priorityLevel) throws Exception {
        RequestInfo info = Requests.requestInfo(request);
        if (outcome.seat() == null) {
            RequestLabels labels = RequestLabels.of(info, request.getMethod(), null, List.of());
            metrics.dropped(labels);
            metrics.terminated(labels, 429);
            apf.droppedRequests().recordDroppedRequest(priorityLevel);
            TooManyRequests.write(response, callback,
                    Long.toString(apf.droppedRequests().retryAfter(priorityLevel)));
            return true;
        }
        if (!info.verb().equals("watch")) {
            return TooManyRequests.serveInSeat(getHandler(), request, response, callback, outcome.seat()::release,
                    false);
        }
        // Counted while it streams, for the seats that writes' events cost (kube's RegisterWatch).
        Runnable forget = apf.registerWatch(info, Request.extractQueryParameters(request).getValue("fieldSelector"));
        try {
            boolean handled = TooManyRequests.serveInSeat(getHandler(), request, response,
                    Callback.from(callback, forget), outcome.seat()::release, true);
            if (!handled) {
                forget.run();
            }
            return handled;
        } catch (Throwable t) {
            forget.run();
            throw t;
        }
    }
}
