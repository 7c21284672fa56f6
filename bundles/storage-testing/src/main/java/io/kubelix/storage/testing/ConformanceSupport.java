package io.kubelix.storage.testing;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.StorageBackend;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageException;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.function.Executable;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Fixtures and helpers of the conformance suite: a fresh backend per test, a configmaps storage
 * on it, object builders and watch helpers. Backends extend {@link StorageConformanceTest}, not
 * this class; the suite is split into a chain of abstract classes by area only to keep files small.
 */
public abstract class ConformanceSupport {
    protected static final GroupResource CONFIGMAPS = GroupResource.of("", "configmaps");
    protected static final GroupResource SECRETS = GroupResource.of("", "secrets");
    /** How long a watch helper waits for an event that must come. */
    protected static final Duration EVENT_TIMEOUT = Duration.ofSeconds(5);
    /** How long a watch helper waits to conclude that no event comes. */
    protected static final Duration QUIET_PERIOD = Duration.ofMillis(300);

    protected StorageBackend backend;
    /** The storage of configmaps, keys {@code /configmaps/<namespace>/<name>}. */
    protected StorageInterface storage;
    private final List<Watch> openWatches = new ArrayList<>();

    /** A new, empty backend; called before every test. */
    protected abstract StorageBackend newBackend();

    /** Releases a backend made by {@link #newBackend()}; called after every test. */
    protected void closeBackend(StorageBackend backend) {
    }

    /**
     * Compacts the backend's history up to {@code revision}, so reads, watches and continue
     * tokens at older revisions are expired. Backends without such a hook skip those tests.
     */
    protected void compact(StorageBackend backend, long revision) {
        Assumptions.abort("the backend offers no compaction hook");
    }

    /** How long to wait for a BOOKMARK on an idle watch with progressNotify. */
    protected Duration progressNotifyTimeout() {
        return Duration.ofSeconds(10);
    }

    @BeforeEach
    final void setUpBackend() {
        backend = newBackend();
        storage = backend.forResource(new StorageConfig(CONFIGMAPS, "/configmaps"));
    }

    @AfterEach
    final void tearDownBackend() {
        openWatches.forEach(Watch::close);
        openWatches.clear();
        closeBackend(backend);
    }

    // ---- objects and keys

    protected static String key(String namespace, String name) {
        return "/configmaps/" + namespace + "/" + name;
    }

    /** A ConfigMap with a random uid and one data entry. */
    protected static ObjectNode configMap(String namespace, String name, String color) {
        ObjectNode obj = JsonNodeFactory.instance.objectNode();
        obj.put("apiVersion", "v1").put("kind", "ConfigMap");
        ObjectNode meta = obj.putObject("metadata");
        meta.put("name", name).put("namespace", namespace).put("uid", UUID.randomUUID().toString());
        obj.putObject("data").put("color", color);
        return obj;
    }

    protected ObjectNode create(String namespace, String name, String color) {
        return storage.create(key(namespace, name), configMap(namespace, name, color));
    }

    protected static long rv(ObjectNode obj) {
        assertNotNull(obj, "object");
        String rv = obj.path("metadata").path("resourceVersion").asText("");
        assertNotNull(rv);
        return Long.parseLong(rv);
    }

    protected static String name(ObjectNode obj) {
        return obj.path("metadata").path("name").asText();
    }

    protected static ObjectNode meta(ObjectNode obj) {
        return (ObjectNode) obj.get("metadata");
    }

    /** Sets {@code data.color} in place and returns the object, as an update function would. */
    protected static ObjectNode withColor(ObjectNode obj, String color) {
        ((ObjectNode) obj.get("data")).put("color", color);
        return obj;
    }

    protected static String color(ObjectNode obj) {
        return obj.path("data").path("color").asText();
    }

    protected static List<String> names(ListResult list) {
        return list.items().stream().map(ConformanceSupport::name).toList();
    }

    /** Selects objects whose {@code data.color} is {@code color}. */
    protected static SelectionPredicate colorIs(String color) {
        return new SelectionPredicate() {
            @Override
            public boolean matches(ObjectNode obj) {
                return color.equals(obj.path("data").path("color").asText());
            }

            @Override
            public boolean matchesEverything() {
                return false;
            }
        };
    }

    protected static ListOptions listOpts(String rv, ResourceVersionMatch match, SelectionPredicate predicate,
                                          long limit, String continueToken) {
        return new ListOptions(rv, match, predicate, true, limit, continueToken, false);
    }

    protected static GetOptions at(String rv) {
        return new GetOptions(false, rv);
    }

    // ---- errors

    protected static StorageException assertStorageError(StorageException.Code code, Executable call) {
        StorageException e = assertThrows(StorageException.class, call);
        assertEquals(code, e.code(), e.getMessage());
        return e;
    }

    protected static StatusException assertStatus(int httpCode, Executable call) {
        StatusException e = assertThrows(StatusException.class, call);
        assertEquals(httpCode, e.code(), e.getMessage());
        return e;
    }

    // ---- watches

    protected Watch watch(String key, boolean recursive, String rv, SelectionPredicate predicate) {
        Watch w = storage.watch(key, new ListOptions(rv, ResourceVersionMatch.UNSET, predicate, recursive, 0, null, false));
        openWatches.add(w);
        return w;
    }

    /** The next non-BOOKMARK event; fails when none arrives in time. */
    protected static WatchEvent next(Watch w) throws InterruptedException {
        long deadline = System.nanoTime() + EVENT_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            WatchEvent e = w.next(Duration.ofNanos(deadline - System.nanoTime()));
            if (e != null && e.type() != WatchEvent.Type.BOOKMARK) {
                return e;
            }
            if (e == null && w.done()) {
                break;
            }
        }
        throw new AssertionError("no watch event within " + EVENT_TIMEOUT);
    }

    protected static WatchEvent expect(Watch w, WatchEvent.Type type, String name, long rv) throws InterruptedException {
        WatchEvent e = next(w);
        assertEquals(type, e.type(), () -> "event " + e);
        assertEquals(name, name(e.object()), () -> "event " + e);
        if (rv > 0) {
            assertEquals(rv, rv(e.object()), () -> "resourceVersion of " + e);
        }
        return e;
    }

    /** Asserts that no non-BOOKMARK event arrives during the quiet period. */
    protected static void expectNothing(Watch w) throws InterruptedException {
        long deadline = System.nanoTime() + QUIET_PERIOD.toNanos();
        while (System.nanoTime() < deadline) {
            WatchEvent e = w.next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (e != null && e.type() != WatchEvent.Type.BOOKMARK) {
                throw new AssertionError("unexpected watch event " + e.type() + " " + e.object());
            }
        }
    }

    /** Reads what is left after close and asserts the stream reports done. */
    protected static void assertEnds(Watch w) throws InterruptedException {
        long deadline = System.nanoTime() + EVENT_TIMEOUT.toNanos();
        while (!w.done() && System.nanoTime() < deadline) {
            w.next(Duration.ofMillis(50));
        }
        assertEquals(true, w.done(), "watch is done");
        assertNull(w.next(Duration.ofMillis(10)), "no event after done");
    }
}
