package io.kubelix.storage.etcd;

import io.etcd.jetcd.Watch.Listener;
import io.etcd.jetcd.Watch.Watcher;
import io.etcd.jetcd.api.ResponseHeader;
import io.etcd.jetcd.watch.WatchResponse;
import io.kubelix.api.storage.WatchEvent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a watch checks etcd's progress notifications (see {@link EtcdWatch}), on a fake stream: a
 * reader that asks for progress while another answer is being checked gets a BOOKMARK from its own
 * answer. The watch cache's consistent reads wait for exactly that; without it they waited for the
 * next idle progress request or their 3 s timeout.
 */
class EtcdWatchProgressCheckTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    @Test
    void progressAnsweredWhileAnotherIsCheckedIsCheckedNext() throws Exception {
        AtomicReference<Listener> stream = new AtomicReference<>();
        AtomicInteger requests = new AtomicInteger();
        CountDownLatch firstCheckRuns = new CountDownLatch(1);
        CountDownLatch releaseFirstCheck = new CountDownLatch(1);
        List<String> checks = new ArrayList<>();
        EtcdWatch.ProgressCheck nothingChanged = (after, upTo) -> {
            synchronized (checks) {
                checks.add(after + ".." + upTo);
            }
            firstCheckRuns.countDown();
            try {
                releaseFirstCheck.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return true;
        };
        EtcdWatch w = new EtcdWatch("test", null, false, 100, 10, List.of(), (from, listener) -> {
            stream.set(listener);
            return new FakeWatcher(requests);
        }, nothingChanged, scheduler, closed -> { });
        w.start();

        w.requestProgress();
        stream.get().onNext(progress(11));
        assertTrue(firstCheckRuns.await(WAIT.toMillis(), TimeUnit.MILLISECONDS), "etcd's answer is being checked");
        // A second reader asks while the first answer is checked; etcd answers at once.
        w.requestProgress();
        stream.get().onNext(progress(12));
        releaseFirstCheck.countDown();

        assertEquals(11, bookmark(w));
        assertEquals(12, bookmark(w), "the second reader's answer, checked after the first");
        synchronized (checks) {
            assertEquals(List.of("10..11", "11..12"), checks);
        }
        assertEquals(2, requests.get(), "no request was repeated");
        w.close();
    }

    private static long bookmark(EtcdWatch w) throws InterruptedException {
        WatchEvent e = w.next(WAIT);
        assertNotNull(e, "a BOOKMARK");
        assertEquals(WatchEvent.Type.BOOKMARK, e.type());
        return Long.parseLong(e.object().path("metadata").path("resourceVersion").asText());
    }

    /** A progress notification: no events, etcd's revision in the header. */
    private static WatchResponse progress(long revision) {
        return new WatchResponse(io.etcd.jetcd.api.WatchResponse.newBuilder()
                .setHeader(ResponseHeader.newBuilder().setRevision(revision)).build());
    }

    /** The etcd stream's handle: counts progress requests. */
    private record FakeWatcher(AtomicInteger requests) implements Watcher {
        @Override
        public void close() {
        }

        @Override
        public boolean isClosed() {
            return false;
        }

        @Override
        public void requestProgress() {
            requests.incrementAndGet();
        }
    }
}
