package io.kubelix.runtime.endpoints;

import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.ScheduledExecutorScheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A connection's watch writes: a burst is written first-then-rest, the rest from the first one's
 * completion; a first write that does not complete (a stalled stream) holds nobody back for long.
 */
class ConnectionWriterTest {
    private final ScheduledExecutorScheduler scheduler = new ScheduledExecutorScheduler();
    private final ExecutorService executor = Executors.newFixedThreadPool(2);
    /** "stream:bytes" in the order the writes reached the responses. */
    private final List<String> written = Collections.synchronizedList(new ArrayList<>());

    @BeforeEach
    void start() throws Exception {
        scheduler.start();
    }

    @AfterEach
    void stop() throws Exception {
        executor.shutdownNow();
        scheduler.stop();
    }

    /** A response that records writes and completes them at once, or never when {@code stalled}. */
    private Response response(String stream, boolean stalled) {
        return (Response) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[]{Response.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("write") && args.length == 3) {
                        written.add(stream + ":" + StandardCharsets.UTF_8.decode((ByteBuffer) args[1]));
                        if (!stalled) {
                            ((Callback) args[2]).succeeded();
                        }
                        return null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    private static Callback counting(CountDownLatch latch) {
        return Callback.from(latch::countDown, x -> { });
    }

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aBurstIsWrittenWholeAndEachStreamInOrder() throws Exception {
        ConnectionWriter writer = new ConnectionWriter(scheduler, executor);
        Response a = response("a", false);
        Response b = response("b", false);
        CountDownLatch done = new CountDownLatch(4);

        writer.write(a, bytes("1"), counting(done));
        writer.write(b, bytes("1"), counting(done));
        assertTrue(waitFor(() -> written.size() == 2), "the burst is written");
        writer.write(a, bytes("2"), counting(done));
        writer.write(b, bytes("2"), counting(done));

        assertTrue(done.await(5, TimeUnit.SECONDS), "every write completed");
        assertEquals(List.of("a:1", "a:2"), written.stream().filter(w -> w.startsWith("a:")).toList());
        assertEquals(List.of("b:1", "b:2"), written.stream().filter(w -> w.startsWith("b:")).toList());
    }

    @Test
    void aStalledFirstWriteDoesNotHoldTheOthersBack() throws Exception {
        ConnectionWriter writer = new ConnectionWriter(scheduler, executor);
        CountDownLatch others = new CountDownLatch(3);

        long start = System.nanoTime();
        writer.write(response("slow", true), bytes("x"), Callback.NOOP);
        for (String s : List.of("b", "c", "d")) {
            writer.write(response(s, false), bytes("x"), counting(others));
        }

        assertTrue(others.await(5, TimeUnit.SECONDS), "the other streams were written: " + written);
        long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(waited >= ConnectionWriter.STALL_MILLIS, "they waited for the first one a little: " + waited + " ms");
        assertEquals("slow:x", written.get(0));

        // and the connection goes on with later bursts
        CountDownLatch later = new CountDownLatch(1);
        writer.write(response("b", false), bytes("y"), counting(later));
        assertTrue(later.await(5, TimeUnit.SECONDS));
    }

    @Test
    void aLoneStalledWriteDoesNotHoldTheNextBurstBack() throws Exception {
        ConnectionWriter writer = new ConnectionWriter(scheduler, executor);
        writer.write(response("slow", true), bytes("x"), Callback.NOOP);
        assertTrue(waitFor(() -> written.size() == 1), "the stalled stream's write was handed on");

        CountDownLatch next = new CountDownLatch(1);
        writer.write(response("b", false), bytes("y"), counting(next));

        assertTrue(next.await(5, TimeUnit.SECONDS), "a later write of another stream went out: " + written);
    }

    private static boolean waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }
}
