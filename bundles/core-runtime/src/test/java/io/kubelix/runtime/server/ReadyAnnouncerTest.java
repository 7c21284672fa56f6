package io.kubelix.runtime.server;

import io.kubelix.api.server.HealthChecker;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReadyAnnouncerTest {

    @Test
    void itSaysReadyOnceWhenEveryCheckFirstPasses() throws Exception {
        AtomicBoolean storage = new AtomicBoolean();
        AtomicInteger said = new AtomicInteger();
        ReadyAnnouncer announcer = new ReadyAnnouncer(() -> List.of(check("ping", () -> true),
                check("storage-backend", storage::get)), () -> "ready " + said.incrementAndGet());
        announcer.start();
        Thread.sleep(3 * ReadyAnnouncer.POLL.toMillis());
        assertFalse(announcer.done());
        assertEquals(0, said.get());

        storage.set(true);
        await(announcer);
        assertEquals(1, said.get());
    }

    @Test
    void aServerStoppingBeforeItIsReadyNeverSaysSo() throws Exception {
        AtomicInteger said = new AtomicInteger();
        ReadyAnnouncer announcer = new ReadyAnnouncer(() -> List.of(check("storage-backend", () -> false)),
                () -> "ready " + said.incrementAndGet(), Duration.ofMillis(1));
        announcer.start();
        Thread.sleep(2 * ReadyAnnouncer.POLL.toMillis());
        announcer.stop();
        await(announcer);
        assertEquals(0, said.get());
    }

    private static void await(ReadyAnnouncer announcer) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!announcer.done() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(announcer.done());
    }

    private static HealthChecker check(String name, java.util.function.BooleanSupplier passes) {
        return new HealthChecker() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void check() {
                if (!passes.getAsBoolean()) {
                    throw new IllegalStateException("not yet");
                }
            }
        };
    }
}
