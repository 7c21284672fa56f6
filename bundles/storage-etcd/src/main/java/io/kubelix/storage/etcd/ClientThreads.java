package io.kubelix.storage.etcd;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads jetcd, gRPC and Netty start and keep in static, class-loader-wide pools. They end
 * only some time after the last client closes (gRPC frees its shared event loop about a second
 * later); if the bundle is uninstalled before that they die with NoClassDefFoundError. So the
 * last client to close waits for them. The count of open clients is static because those pools
 * are: both live exactly as long as this bundle's class loader.
 */
final class ClientThreads {
    private static final List<String> PREFIXES = List.of("grpc-nio-worker-ELG", "grpc-default-executor",
            "grpc-timer", "grpc-shared-destroyer", "jetcd-", "vert.x-", "vertx-");
    private static final AtomicInteger OPEN_CLIENTS = new AtomicInteger();

    private ClientThreads() {
    }

    static void opened() {
        OPEN_CLIENTS.incrementAndGet();
    }

    /**
     * Called after a client is closed: when it was the last one, waits up to {@code timeout} for
     * the client threads to end.
     *
     * @return the names of client threads still alive (empty when all ended or other clients are open)
     */
    static List<String> closed(Duration timeout) throws InterruptedException {
        if (OPEN_CLIENTS.decrementAndGet() > 0) {
            return List.of();
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<Thread> alive = alive();
            if (alive.isEmpty() || System.nanoTime() > deadline) {
                return alive.stream().map(Thread::getName).toList();
            }
            for (Thread t : alive) {
                long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
                t.join(Math.min(left, 200));
            }
        }
    }

    static List<Thread> alive() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .filter(t -> PREFIXES.stream().anyMatch(p -> t.getName().startsWith(p)))
                .toList();
    }
}
