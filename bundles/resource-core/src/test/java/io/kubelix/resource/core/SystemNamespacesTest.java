package io.kubelix.resource.core;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SystemNamespacesTest {
    private final FakeStore store = new FakeStore(CoreRESTStorageProvider.namespaceSpec());
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();

    @Test
    void createsOnlyTheMissingOnes() {
        store.objects.put("default", Json.obj("{'metadata':{'name':'default'}}"));
        SystemNamespaces controller = new SystemNamespaces(store, executor);
        assertTrue(controller.ensure());
        assertEquals(List.of("kube-system", "kube-public", "kube-node-lease"), store.created);
        assertTrue(controller.ensure());
        assertEquals(3, store.created.size());
        executor.shutdownNow();
    }

    @Test
    void alreadyExistsCountsAsSuccess() {
        SystemNamespaces controller = new SystemNamespaces(store, executor);
        assertTrue(controller.ensure());
        store.staleGets = true;
        assertTrue(controller.ensure());
        assertEquals(4, store.created.size());
        executor.shutdownNow();
    }

    @Test
    void retriesUntilStorageAnswers() throws InterruptedException {
        store.failures.set(6);
        SystemNamespaces controller = new SystemNamespaces(store, executor);
        assertFalse(controller.ensure());
        controller.start();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (store.objects.size() < 4 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        controller.stop();
        executor.shutdownNow();
        assertEquals(4, store.objects.size());
    }
}
