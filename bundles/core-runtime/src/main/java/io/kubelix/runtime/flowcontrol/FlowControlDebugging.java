package io.kubelix.runtime.flowcontrol;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.charset.StandardCharsets;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * kube's {@code /debug/api_priority_and_fairness/} endpoints, in its comma-and-tab text: one line
 * per priority level ({@code dump_priority_levels}), per queue ({@code dump_queues}), per waiting
 * request ({@code dump_requests}, with {@code ?includeRequestDetails=1} who made it and for what).
 * They are non-resource URLs, authorized as every other path is.
 */
public final class FlowControlDebugging {
    public static final String PREFIX = "/debug/api_priority_and_fairness/";

    private final PriorityAndFairness apf;

    public FlowControlDebugging(PriorityAndFairness apf) {
        this.apf = apf;
    }

    /** Serves {@code path} when it is one of the dumps; false otherwise. */
    public boolean serve(Request request, Response response, Callback callback, String path) {
        List<List<String>> rows = switch (path) {
            case PREFIX + "dump_priority_levels" -> priorityLevels();
            case PREFIX + "dump_queues" -> queues();
            case PREFIX + "dump_requests" -> requests("1".equals(
                    Request.extractQueryParameters(request).getValue("includeRequestDetails")));
            default -> null;
        };
        if (rows == null) {
            return false;
        }
        Responses.write(response, callback, 200, "text/plain; charset=utf-8",
                table(rows).getBytes(StandardCharsets.UTF_8));
        return true;
    }

    private List<List<String>> priorityLevels() {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("PriorityLevelName", "ActiveQueues", "IsIdle", "IsQuiescing", "WaitingRequests",
                "ExecutingRequests", "DispatchedRequests", "RejectedRequests", "TimedoutRequests", "CancelledRequests"));
        for (PriorityAndFairness.Level l : apf.levels()) {
            QueueSet.LevelState s = l.queues().state();
            rows.add(List.of(s.name(), n(s.activeQueues()), Boolean.toString(s.waiting() + s.executing() == 0),
                    "false", n(s.waiting()), n(s.executing()), n(s.dispatched()), n(s.rejected()), n(s.timedOut()),
                    n(s.cancelled())));
        }
        return rows;
    }

    private List<List<String>> queues() {
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("PriorityLevelName", "Index", "PendingRequests", "ExecutingRequests", "SeatsInUse",
                "NextDispatchR", "InitialSeatsSum", "MaxSeatsSum", "TotalWorkSum"));
        for (PriorityAndFairness.Level l : apf.levels()) {
            if (l.queues().exempt()) {
                rows.add(List.of(l.name(), "<none>", "<none>", "<none>", "<none>", "<none>", "<none>", "<none>",
                        "<none>"));
                continue;
            }
            for (QueueSet.QueueState q : l.queues().queues()) {
                rows.add(List.of(l.name(), n(q.index()), n(q.waiting()), n(q.executing()), n(q.seatsInUse()),
                        seatSeconds(q.nextDispatchR()), n(q.initialSeatsSum()), n(q.maxSeatsSum()),
                        seatSeconds(q.totalWorkSum())));
            }
        }
        return rows;
    }

    private List<List<String>> requests(boolean details) {
        List<List<String>> rows = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of("PriorityLevelName", "FlowSchemaName", "QueueIndex",
                "RequestIndexInQueue", "FlowDistingsher", "ArriveTime", "InitialSeats", "FinalSeats",
                "AdditionalLatency", "StartTime"));
        if (details) {
            header.addAll(List.of("UserName", "Verb", "APIPath", "Namespace", "Name", "APIVersion", "Resource",
                    "SubResource"));
        }
        rows.add(header);
        for (PriorityAndFairness.Level l : apf.levels()) {
            for (QueueSet.WaitingRequest r : l.queues().waiting()) {
                List<String> row = new ArrayList<>(List.of(l.name(), r.flowSchema(), n(r.queue()),
                        n(r.indexInQueue()), r.distinguisher(), DateTimeFormatter.ISO_INSTANT.format(r.arrived()),
                        n(r.estimate().initialSeats()), n(r.estimate().finalSeats()),
                        goDuration(r.estimate().additionalLatency()), "<none>"));
                if (details) {
                    RequestInfo i = r.digest().info();
                    row.addAll(List.of(r.digest().user().name(), i.verb(), i.path(), i.namespace(), i.name(),
                            i.apiVersion(), i.resource(), i.subresource()));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    /** As Go's tabwriter (minimum width 8, padding 1) lays out kube's cells joined by ",\t". */
    static String table(List<List<String>> rows) {
        int columns = rows.stream().mapToInt(List::size).max().orElse(0);
        int[] widths = new int[columns];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size() - 1; i++) {
                widths[i] = Math.max(widths[i], Math.max(8, row.get(i).length() + 2));
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                String cell = i < row.size() - 1 ? row.get(i) + "," : row.get(i);
                out.append(cell);
                if (i < row.size() - 1) {
                    out.append(" ".repeat(widths[i] - cell.length()));
                }
            }
            out.append('\n');
        }
        return out.toString();
    }

    /** kube's SeatSeconds.String: seat-seconds with nine decimals. */
    private static String seatSeconds(double v) {
        return String.format(java.util.Locale.ROOT, "%.9fss", v);
    }

    /** A duration as Go prints one: {@code 0s}, {@code 5ms}, {@code 13.75ms}. */
    private static String goDuration(java.time.Duration d) {
        long nanos = d.toNanos();
        if (nanos == 0) {
            return "0s";
        }
        java.math.BigDecimal ms = java.math.BigDecimal.valueOf(nanos, 6).stripTrailingZeros();
        return nanos < 1_000_000_000L ? ms.toPlainString() + "ms"
                : java.math.BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString() + "s";
    }

    private static String n(long v) {
        return Long.toString(v);
    }
}
