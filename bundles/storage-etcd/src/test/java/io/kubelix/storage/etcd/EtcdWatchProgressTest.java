package io.kubelix.storage.etcd;

import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Watch.requestProgress promises a BOOKMARK "delivered after every event up to that revision".
 * etcd before 3.4.31 / 3.5.13 (Debian's etcd-server is 3.4.23) answers a progress request at once
 * with its current revision, even while events of that revision are still on their way to the
 * watch (etcd-io/etcd#15220). A write followed at once by a progress request is the pattern of the
 * watch cache's consistent read: the BOOKMARK must never overtake the write's event, and the event
 * must never be lost.
 */
class EtcdWatchProgressTest {
    private static EtcdServer etcd;
    private static EtcdStorageBackend backend;

    @BeforeAll
    static void start() throws Exception {
        etcd = EtcdServer.start();
        backend = EtcdTestSupport.backend(etcd.endpoint(), "/progress");
    }

    @AfterAll
    static void stop() throws Exception {
        if (backend != null) {
            backend.deactivate();
        }
        if (etcd != null) {
            etcd.close();
        }
    }

    /**
     * A watch from an older revision (etcd must catch it up first: an "unsynced" watcher, as the
     * watch cache's reflector is right after its list) asked for progress at once.
     */
    @Test
    void bookmarkOfARequestedProgressNeverOvertakesAnEvent() throws Exception {
        StorageInterface storage = backend.forResource(EtcdTestSupport.CONFIGMAPS);
        List<String> violations = new ArrayList<>();
        for (int round = 0; round < 20; round++) {
            long from = storage.currentResourceVersion();
            List<Long> written = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                String name = "r" + round + "-" + i;
                written.add(EtcdTestSupport.rv(storage.create(EtcdTestSupport.key(name),
                        EtcdTestSupport.configMap(name, "v"))));
            }
            ListOptions opts = new ListOptions(Long.toString(from), ResourceVersionMatch.UNSET,
                    SelectionPredicate.EVERYTHING, true, 0, null, false);
            try (Watch w = storage.watch("/configmaps", opts)) {
                w.requestProgress();
                List<Long> seen = new ArrayList<>();
                long bookmark = 0;
                long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
                while (seen.size() < written.size() && System.nanoTime() < deadline) {
                    WatchEvent e = w.next(Duration.ofMillis(100));
                    if (e == null) {
                        continue;
                    }
                    long rv = Long.parseLong(e.object().path("metadata").path("resourceVersion").asText());
                    if (e.type() == WatchEvent.Type.BOOKMARK) {
                        bookmark = Math.max(bookmark, rv);
                    } else {
                        assertEquals(WatchEvent.Type.ADDED, e.type(), e.toString());
                        if (rv <= bookmark) {
                            violations.add("round " + round + ": ADDED at " + rv + " after a BOOKMARK at " + bookmark);
                        }
                        seen.add(rv);
                    }
                }
                assertEquals(written, seen, "round " + round + ": every event once, in order (none lost); "
                        + "violations so far: " + violations);
            }
        }
        assertEquals(List.of(), violations);
    }

    @Test
    void requestedProgressOfAnIdleWatchIsABookmarkAtTheCurrentRevision() throws Exception {
        StorageInterface storage = backend.forResource(EtcdTestSupport.CONFIGMAPS);
        storage.create(EtcdTestSupport.key("idle"), EtcdTestSupport.configMap("idle", "v"));
        long now = storage.currentResourceVersion();
        ListOptions opts = new ListOptions(Long.toString(now), ResourceVersionMatch.UNSET,
                SelectionPredicate.EVERYTHING, true, 0, null, false);
        try (Watch w = storage.watch("/configmaps", opts)) {
            WatchEvent b = null;
            long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
            while (b == null && System.nanoTime() < deadline) {
                w.requestProgress();
                WatchEvent e = w.next(Duration.ofMillis(300));
                if (e != null) {
                    assertEquals(WatchEvent.Type.BOOKMARK, e.type(), e.toString());
                    b = e;
                }
            }
            assertNotNull(b, "a BOOKMARK when nothing is pending");
            assertTrue(Long.parseLong(b.object().path("metadata").path("resourceVersion").asText()) >= now);
        }
    }
}
