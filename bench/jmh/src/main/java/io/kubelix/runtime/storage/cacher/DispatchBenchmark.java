package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.APIObjectVersioner;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.UpdateFunction;
import io.kubelix.api.storage.ValidateObjectFunction;
import io.kubelix.api.storage.Versioner;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The Cacher's dispatch: a batch of events arrives on the backend watch, the reflector applies each
 * to the watch cache and hands it to every watcher of the resource, and the watchers are drained.
 * The score is per event, for all watchers together. Watchers select {@code team=<i % 10>} by a
 * label when {@code selective} is set (each event then interests a tenth of them), or everything.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DispatchBenchmark {
    private static final int BATCH = 1000;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    @Param({"1", "100", "1000"})
    public int watchers;

    @Param({"false"})
    public boolean selective;

    private FakeBackend backend;
    private Cacher cacher;
    private final List<Watch> watches = new ArrayList<>();
    private final List<WatchEvent> batch = new ArrayList<>();
    private final List<Integer> expected = new ArrayList<>();

    @Setup(Level.Trial)
    public void setUp() throws InterruptedException {
        backend = new FakeBackend();
        cacher = new Cacher(backend, GroupResource.of("", "configmaps"), "/configmaps",
                new CacherOptions(10_000, 2 * BATCH, Duration.ofSeconds(1), Duration.ofMinutes(1), Duration.ofSeconds(3)));
        while (!cacher.ready()) {
            Thread.sleep(1);
        }
        for (int i = 0; i < watchers; i++) {
            String team = Integer.toString(i % 10);
            io.kubelix.api.storage.SelectionPredicate p = !selective ? null : new io.kubelix.api.storage.SelectionPredicate() {
                @Override
                public boolean matches(ObjectNode obj) {
                    return team.equals(obj.path("metadata").path("labels").path("team").asText());
                }

                @Override
                public boolean matchesEverything() {
                    return false;
                }
            };
            watches.add(cacher.watch("/configmaps", new ListOptions(Long.toString(backend.revision.get()),
                    ResourceVersionMatch.UNSET, p, true, 0, null, false)));
            expected.add(selective ? BATCH / 10 : BATCH);
        }
    }

    @Setup(Level.Invocation)
    public void nextBatch() {
        batch.clear();
        String payload = "x".repeat(1000);
        for (int i = 0; i < BATCH; i++) {
            long rv = backend.revision.incrementAndGet();
            ObjectNode o = F.objectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
            ObjectNode meta = o.putObject("metadata").put("name", "cm-" + (i % 100)).put("namespace", "bench")
                    .put("resourceVersion", Long.toString(rv));
            meta.putObject("labels").put("team", Integer.toString(i % 10));
            o.putObject("data").put("payload", payload);
            batch.add(WatchEvent.of(rv <= 101 ? WatchEvent.Type.ADDED : WatchEvent.Type.MODIFIED, o));
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int dispatch() throws InterruptedException {
        backend.events.addAll(batch);
        int received = 0;
        for (int i = 0; i < watches.size(); i++) {
            Watch w = watches.get(i);
            for (int n = 0; n < expected.get(i); n++) {
                if (w.next(Duration.ofSeconds(10)) == null) {
                    throw new IllegalStateException("watcher " + i + " got " + n + " of " + expected.get(i) + " events");
                }
                received++;
            }
        }
        return received;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        watches.forEach(Watch::close);
        cacher.stop();
    }

    /** A backend that lists nothing and streams the events the benchmark puts in its queue. */
    static final class FakeBackend implements StorageInterface {
        final AtomicLong revision = new AtomicLong(1);
        final LinkedBlockingQueue<WatchEvent> events = new LinkedBlockingQueue<>();

        @Override
        public Versioner versioner() {
            return APIObjectVersioner.INSTANCE;
        }

        @Override
        public ListResult getList(String key, ListOptions opts) {
            return new ListResult(List.of(), revision.get(), null, null);
        }

        @Override
        public Watch watch(String key, ListOptions opts) {
            return new Watch() {
                private volatile boolean closed;

                @Override
                public WatchEvent next(Duration timeout) throws InterruptedException {
                    return events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
                }

                @Override
                public boolean done() {
                    return closed;
                }

                @Override
                public void close() {
                    closed = true;
                }
            };
        }

        @Override
        public long currentResourceVersion() {
            return revision.get();
        }

        @Override
        public ObjectNode create(String key, ObjectNode obj) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ObjectNode delete(String key, Preconditions preconditions, ValidateObjectFunction validateDeletion) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ObjectNode get(String key, GetOptions opts) {
            throw new UnsupportedOperationException();
        }

        @Override
        public ObjectNode guaranteedUpdate(String key, boolean ignoreNotFound, Preconditions preconditions,
                                          UpdateFunction tryUpdate) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long count(String key) {
            return 0;
        }
    }
}
