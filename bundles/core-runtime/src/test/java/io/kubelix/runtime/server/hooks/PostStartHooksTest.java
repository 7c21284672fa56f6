package io.kubelix.runtime.server.hooks;

import io.kubelix.api.server.HealthChecker;
import io.kubelix.api.server.PostStartHook;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube's post-start hooks: a readiness check per name that passes once its hook has returned. */
class PostStartHooksTest {
    private final Map<String, HealthChecker> checks = new ConcurrentHashMap<>();
    private final PostStartHooks hooks = new PostStartHooks((name, check) -> {
        checks.put(check.name(), check);
        return () -> checks.remove(check.name());
    });

    /** A hook that returns each time the test releases it, failing the first {@code failures} runs. */
    private static final class Gate implements PostStartHook {
        final String name;
        final Semaphore release = new Semaphore(0);
        final AtomicInteger runs = new AtomicInteger();
        final CountDownLatch waiting = new CountDownLatch(1);
        final CountDownLatch interrupted = new CountDownLatch(1);
        final int failures;

        Gate(String name, int failures) {
            this.name = name;
            this.failures = failures;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public void run() throws Exception {
            if (runs.incrementAndGet() <= failures) {
                throw new IllegalStateException("storage is not there yet");
            }
            try {
                waiting.countDown();
                release.acquire();
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
        }
    }

    private static boolean passes(HealthChecker check) {
        try {
            check.check();
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private void awaitPassing(String name) throws InterruptedException {
        for (int i = 0; i < 2000 && !passes(checks.get(name)); i++) {
            Thread.sleep(10);
        }
    }

    @Test
    void theCheckFailsUntilTheHookHasReturnedThenStaysPassed() throws Exception {
        Gate gate = new Gate("bootstrap-controller", 0);
        hooks.addHook(gate);
        HealthChecker check = checks.get("poststarthook/bootstrap-controller");
        Exception notYet = assertThrows(IllegalStateException.class, check::check);
        assertEquals("not finished", notYet.getMessage());
        gate.release.release();
        awaitPassing("poststarthook/bootstrap-controller");
        assertTrue(passes(check));
        assertEquals(1, gate.runs.get());
    }

    @Test
    void aFailingHookRunsAgainUntilItReturns() throws Exception {
        Gate gate = new Gate("flaky", 2);
        hooks.addHook(gate);
        gate.release.release();
        awaitPassing("poststarthook/flaky");
        assertTrue(passes(checks.get("poststarthook/flaky")));
        assertEquals(3, gate.runs.get());
    }

    @Test
    void aHookGoingAwayIsInterruptedAndItsCheckWithdrawn() throws Exception {
        Gate gate = new Gate("plugin-hook", 0);
        hooks.addHook(gate);
        assertTrue(checks.containsKey("poststarthook/plugin-hook"));
        assertTrue(gate.waiting.await(20, TimeUnit.SECONDS));
        hooks.removeHook(gate);
        assertTrue(gate.interrupted.await(20, TimeUnit.SECONDS));
        assertFalse(checks.containsKey("poststarthook/plugin-hook"));
    }

    @Test
    void aNewRevisionOfACompletedHookRunsAgainWithoutFailingTheCheck() throws Exception {
        Gate first = new Gate("bootstrap", 0);
        hooks.addHook(first);
        first.release.release();
        awaitPassing("poststarthook/bootstrap");
        Gate second = new Gate("bootstrap", 0);
        hooks.addHook(second);
        hooks.removeHook(first);
        assertTrue(passes(checks.get("poststarthook/bootstrap")), "still ready while the new revision runs");
        second.release.release();
        hooks.deactivate();
        assertTrue(checks.isEmpty());
    }
}
