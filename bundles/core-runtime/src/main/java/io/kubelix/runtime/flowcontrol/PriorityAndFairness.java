package io.kubelix.runtime.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.runtime.metrics.FlowControlMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * kube's flow-control configuration controller at the heart of WithPriorityAndFairness: the
 * FlowSchemas and priority levels in force, the classification of a request, and one
 * {@link QueueSet} per priority level. It starts with kube's bootstrap configuration and takes
 * the stored objects whenever they change ({@link #apply}); the mandatory {@code exempt} and
 * {@code catch-all} objects stand in, from the bootstrap, while missing.
 *
 * <p>The server's concurrency limit, {@code --max-requests-inflight} plus
 * {@code --max-mutating-requests-inflight}, is shared by the priority levels in proportion to
 * their {@code nominalConcurrencyShares} (kube's nominal concurrency limit,
 * {@code ceil(limit * shares / sum of shares)}); the levels lend and borrow seats as their demand
 * goes ({@link SeatBorrowing}).
 */
public final class PriorityAndFairness {
    private static final Logger LOG = LoggerFactory.getLogger(PriorityAndFairness.class);

    private final int serverConcurrencyLimit;
    private final Duration requestWaitLimit;
    /** kube's hard limit on any request's wait in a queue. */
    private static final Duration MAX_WAIT = Duration.ofMinutes(1);
    private final FlowControlMetrics metrics;
    private final EventClock clock;
    private final WatchTracker watches = new WatchTracker();
    private final WorkEstimator workEstimator;
    private final SeatBorrowing borrowing;
    private final DroppedRequestsTracker droppedRequests =
            new DroppedRequestsTracker(() -> System.currentTimeMillis() / 1000);
    /** Kept across configurations, so the requests waiting and executing in a level stay counted. */
    private final Map<String, QueueSet> queueSets = new HashMap<>();
    private volatile Config config;

    /** A FlowSchema in force, with its level. */
    private record Schema(ObjectNode object, String name, String uid, int precedence, String distinguisherMethod,
                          Level level) {
    }

    /** A priority level in force; {@code maxSeats} caps its requests' work estimates (0: only kube's 10). */
    record Level(ObjectNode object, String name, String uid, QueueSet queues, int maxSeats) {
    }

    /** The configuration in force: schemas in matching order, levels by name. */
    private record Config(List<Schema> schemas, Map<String, Level> levels) {
    }

    /** What a request was classified as; the flow is the schema and the distinguisher. */
    public record Classification(String flowSchema, String flowSchemaUID, String priorityLevel,
                                 String priorityLevelUID, String distinguisher, QueueSet queues, int maxSeats) {
    }

    /**
     * @param serverConcurrencyLimit the seats of every Limited level together
     * @param requestWaitLimit       how long a request with no deadline may wait in a queue (kube: a quarter of the request timeout)
     * @param objectCounts           the stored objects of a resource, for the work estimates of LISTs
     *                               (see {@link WorkEstimator})
     */
    public PriorityAndFairness(int serverConcurrencyLimit, Duration requestWaitLimit, FlowControlMetrics metrics,
                               java.util.function.ToLongFunction<String> objectCounts, EventClock clock) {
        this.serverConcurrencyLimit = serverConcurrencyLimit;
        this.requestWaitLimit = requestWaitLimit;
        this.metrics = metrics;
        this.clock = clock;
        this.workEstimator = new WorkEstimator(objectCounts, watches);
        this.borrowing = new SeatBorrowing(metrics);
        apply(BootstrapConfiguration.flowSchemas(), BootstrapConfiguration.priorityLevels());
        scheduleBorrowing();
    }

    /** kube adjusts the levels' seats every 10 seconds, for as long as the server runs. */
    private void scheduleBorrowing() {
        clock.schedule(() -> {
            try {
                borrowing.update();
            } catch (RuntimeException e) {
                LOG.warn("priority and fairness: cannot adjust the priority levels' seats: {}", e.toString());
            }
            scheduleBorrowing();
        }, SeatBorrowing.PERIOD);
    }

    /** With no object counts (every LIST one seat) and the system's clock. */
    public PriorityAndFairness(int serverConcurrencyLimit, Duration requestWaitLimit, FlowControlMetrics metrics) {
        this(serverConcurrencyLimit, requestWaitLimit, metrics, r -> WorkEstimator.NOT_FOUND, EventClock.system());
    }

    /** The seats a request of this classification takes (kube's WorkEstimator). */
    public WorkEstimate estimateWork(Classification c, RequestDigest digest,
                                     java.util.function.Function<String, String> query) {
        return workEstimator.estimate(digest.info(), query, c.maxSeats());
    }

    /** The Retry-After of each level's refusals. */
    public DroppedRequestsTracker droppedRequests() {
        return droppedRequests;
    }

    /** Counts a watch being served, for the estimates of writes; returns what forgets it. */
    public Runnable registerWatch(io.kubelix.api.request.RequestInfo info, String fieldSelector) {
        return watches.register(info, fieldSelector);
    }

    public Duration requestWaitLimit() {
        return requestWaitLimit;
    }

    /**
     * How long a request given {@code timeout} from its arrival may wait in a queue, as kube's
     * getRequestWaitContext: a quarter of it, or the default wait limit for a request with no
     * deadline (a watch), and never more than a minute.
     *
     * @param timeout the request's time from its arrival, or null when it has no deadline
     */
    public Duration requestWaitLimit(Duration timeout) {
        // Nanoseconds: Duration.dividedBy goes through BigDecimal, on every request.
        Duration limit = timeout == null ? requestWaitLimit : Duration.ofNanos(timeout.toNanos() / 4);
        return limit.compareTo(MAX_WAIT) > 0 ? MAX_WAIT : limit;
    }

    /**
     * Puts these FlowSchemas and PriorityLevelConfigurations in force. A FlowSchema whose level is
     * missing (Dangling) matches nothing.
     */
    public synchronized void apply(List<ObjectNode> flowSchemas, List<ObjectNode> priorityLevels) {
        Map<String, ObjectNode> levelObjects = new LinkedHashMap<>();
        priorityLevels.forEach(pl -> levelObjects.put(name(pl), pl));
        List<ObjectNode> schemaObjects = new ArrayList<>(flowSchemas);
        // The mandatory objects stand in while missing, as kube's controller imagines them.
        for (ObjectNode pl : BootstrapConfiguration.mandatoryPriorityLevels()) {
            levelObjects.putIfAbsent(name(pl), pl);
        }
        for (ObjectNode fs : BootstrapConfiguration.mandatoryFlowSchemas()) {
            if (schemaObjects.stream().noneMatch(s -> name(s).equals(name(fs)))) {
                schemaObjects.add(fs);
            }
        }

        Map<String, Integer> limits = nominalConcurrencyLimits(serverConcurrencyLimit, levelObjects.values());
        Map<String, Level> levels = new LinkedHashMap<>();
        List<SeatBorrowing.LevelConfig> seats = new ArrayList<>();
        for (ObjectNode pl : levelObjects.values()) {
            String name = name(pl);
            JsonNode spec = pl.path("spec");
            boolean exempt = spec.path("type").asText().equals("Exempt");
            QueueSet qs = queueSets.get(name);
            if (qs == null || qs.exempt() != exempt) {
                qs = new QueueSet(name, exempt, metrics, clock);
                queueSets.put(name, qs);
            }
            JsonNode queuing = spec.path("limited").path("limitResponse").path("queuing");
            boolean queue = spec.path("limited").path("limitResponse").path("type").asText("Queue").equals("Queue");
            int handSize = queuing.path("handSize").asInt(8);
            qs.configure(limits.get(name), queue ? queuing.path("queues").asInt(64) : 0,
                    handSize, queuing.path("queueLengthLimit").asInt(50));
            metrics.nominalLimit(name, limits.get(name));
            int maxSeats = queue && !exempt ? WorkEstimator.maxSeats(limits.get(name), Math.max(handSize, 1)) : 0;
            levels.put(name, new Level(pl, name, uid(pl), qs, maxSeats));
            JsonNode lending = spec.path(exempt ? "exempt" : "limited");
            seats.add(new SeatBorrowing.LevelConfig(name, qs, exempt, limits.get(name), percent(lending, "lendablePercent"),
                    percent(lending, "borrowingLimitPercent")));
        }
        for (String gone : new ArrayList<>(queueSets.keySet())) {
            if (!levels.containsKey(gone)) {
                queueSets.remove(gone);
                metrics.levelRemoved(gone);
            }
        }
        borrowing.configure(seats, serverConcurrencyLimit);

        List<Schema> schemas = new ArrayList<>();
        for (ObjectNode fs : schemaObjects) {
            JsonNode spec = fs.path("spec");
            Level level = levels.get(spec.path("priorityLevelConfiguration").path("name").asText());
            if (level == null) {
                continue;
            }
            schemas.add(new Schema(fs, name(fs), uid(fs), spec.path("matchingPrecedence").asInt(1000),
                    spec.path("distinguisherMethod").path("type").asText(""), level));
        }
        if (schemas.stream().noneMatch(s -> s.name().equals(BootstrapConfiguration.CATCH_ALL))) {
            // The stored catch-all names a missing level: the bootstrap one stands in.
            ObjectNode fs = BootstrapConfiguration.mandatoryFlowSchemas().stream()
                    .filter(s -> name(s).equals(BootstrapConfiguration.CATCH_ALL)).findFirst().orElseThrow();
            schemas.add(new Schema(fs, name(fs), uid(fs), 10000, "ByUser", levels.get(BootstrapConfiguration.CATCH_ALL)));
        }
        schemas.sort(Comparator.comparingInt(Schema::precedence).thenComparing(Schema::name));
        config = new Config(List.copyOf(schemas), Map.copyOf(levels));
        LOG.debug("priority and fairness: {} flow schemas and {} priority levels in force", schemas.size(), levels.size());
    }

    /**
     * kube's nominal concurrency limit of each level: {@code ceil(serverLimit * shares / sum of shares)},
     * the shares of an Exempt level included (it has 0 unless set).
     */
    static Map<String, Integer> nominalConcurrencyLimits(int serverLimit, Iterable<ObjectNode> levels) {
        Map<String, Integer> shares = new LinkedHashMap<>();
        double sum = 0;
        for (ObjectNode pl : levels) {
            JsonNode spec = pl.path("spec");
            int s = spec.path("type").asText().equals("Exempt")
                    ? spec.path("exempt").path("nominalConcurrencyShares").asInt(0)
                    : spec.path("limited").path("nominalConcurrencyShares").asInt(30);
            shares.put(name(pl), s);
            sum += s;
        }
        Map<String, Integer> limits = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> e : shares.entrySet()) {
            limits.put(e.getKey(), sum == 0 ? 0 : (int) Math.ceil(serverLimit * e.getValue() / sum));
        }
        return limits;
    }

    /**
     * The first FlowSchema, by matchingPrecedence then name, whose rules match the request, and its
     * level; {@code catch-all} when none does.
     */
    public Classification classify(RequestDigest digest) {
        Config c = config;
        Schema match = null;
        for (Schema s : c.schemas()) {
            if (FlowSchemaMatching.matches(s.object(), digest)) {
                match = s;
                break;
            }
        }
        if (match == null) {
            match = c.schemas().stream().filter(s -> s.name().equals(BootstrapConfiguration.CATCH_ALL)).findFirst()
                    .orElseThrow();
        }
        String distinguisher = switch (match.distinguisherMethod()) {
            case "ByUser" -> digest.user().name();
            case "ByNamespace" -> digest.info().namespace();
            default -> "";
        };
        Level l = match.level();
        return new Classification(match.name(), match.uid(), l.name(), l.uid(), distinguisher, l.queues(),
                l.maxSeats());
    }

    /** The levels in force, by name. */
    List<Level> levels() {
        return config.levels().values().stream().sorted(Comparator.comparing(Level::name)).toList();
    }

    private static Integer percent(JsonNode parent, String field) {
        JsonNode v = parent.path(field);
        return v.isNumber() ? v.asInt() : null;
    }

    /** The levels' seats now, after borrowing and lending, by name. */
    Map<String, Integer> currentLimits() {
        return borrowing.currentLimits();
    }

    /** Adjusts the levels' seats now, as the periodic adjustment does (for tests). */
    void updateBorrowing() {
        borrowing.update();
    }

    private static String name(JsonNode o) {
        return o.path("metadata").path("name").asText();
    }

    /** The object's uid; one derived from its kind and name for a bootstrap object held only in memory. */
    private static String uid(JsonNode o) {
        String uid = o.path("metadata").path("uid").asText("");
        if (!uid.isEmpty()) {
            return uid;
        }
        return UUID.nameUUIDFromBytes((o.path("kind").asText() + "/" + name(o)).getBytes(StandardCharsets.UTF_8))
                .toString();
    }
}
