package io.kubelix.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.HdrHistogram.Histogram;

import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * authz: what RBAC costs a read. Makes R roles and R role bindings (each for another user) in a
 * namespace, and a service account (or, with {@code --user-token}, a token-file user, authenticated
 * as cheaply as the admin) bound to {@code view} there; then GETs one configmap with C requests in
 * flight for T seconds at a time, alternating the admin (in {@code system:masters}, allowed before
 * any authorizer is asked: the cost of no authorization) and that subject (RBAC finds its binding
 * among all the others), for N rounds of each. Run against a server with
 * the default {@code --authorization-mode=RBAC}. With {@code --server-pid} each round also gives the
 * server's CPU time per GET (process CPU from /proc), which a busy machine disturbs less than the rate.
 */
final class Authz {
    private final Kube kube;
    private final String ns;
    private final int roles;
    private final int seconds;
    private final int rounds;
    private final int inFlight;
    private final String userToken;
    private final String user;
    private final ServerProbe probe;

    Authz(Kube kube, Options o) {
        this.kube = kube;
        this.ns = o.get("namespace", "bench-authz");
        this.roles = o.integer("roles", 1000);
        this.seconds = o.integer("seconds", 10);
        this.rounds = o.integer("rounds", 3);
        this.inFlight = o.integer("in-flight", 16);
        this.userToken = o.get("user-token");
        this.user = o.get("user", "bench-user");
        this.probe = new ServerProbe(o.get("server-pid"));
    }

    void run() throws Exception {
        System.out.printf("authz: GET of one configmap with %d in flight, %d s per round, %d rounds per identity,"
                + " %d roles and bindings in %s%n", inFlight, seconds, rounds, roles, ns);
        kube.ensureNamespace(ns);
        kube.deleteConfigMaps(ns);
        kube.call("POST", Kube.configMapsPath(ns), Kube.configMap("target", "v", "0"));
        String rbac = "/apis/rbac.authorization.k8s.io/v1/namespaces/" + ns;
        for (int i = 0; i < roles; i++) {
            createIfMissing(rbac + "/roles", Kube.JSON.readTree("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\","
                    + "\"kind\":\"Role\",\"metadata\":{\"name\":\"bench-role-" + i + "\"},\"rules\":[{\"verbs\":[\"get\"],"
                    + "\"apiGroups\":[\"\"],\"resources\":[\"configmaps\"],\"resourceNames\":[\"cm-" + i + "\"]}]}"));
            createIfMissing(rbac + "/rolebindings", binding("bench-binding-" + i, "Role", "bench-role-" + i,
                    "{\"kind\":\"User\",\"name\":\"user-" + i + "\",\"apiGroup\":\"rbac.authorization.k8s.io\"}"));
        }
        String saToken;
        if (userToken != null) {
            // A token-file user: the same authentication as the admin's, so the difference is RBAC's alone.
            createIfMissing(rbac + "/rolebindings", binding("bench-user-view", "ClusterRole", "view",
                    "{\"kind\":\"User\",\"name\":\"" + user + "\",\"apiGroup\":\"rbac.authorization.k8s.io\"}"));
            saToken = userToken;
        } else {
            createIfMissing("/api/v1/namespaces/" + ns + "/serviceaccounts", Kube.JSON.readTree(
                    "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":\"bench-reader\"}}"));
            createIfMissing(rbac + "/rolebindings", binding("bench-reader-view", "ClusterRole", "view",
                    "{\"kind\":\"ServiceAccount\",\"name\":\"bench-reader\",\"namespace\":\"" + ns + "\"}"));
            saToken = kube.call("POST", "/api/v1/namespaces/" + ns + "/serviceaccounts/bench-reader/token",
                    Kube.JSON.readTree("{\"apiVersion\":\"authentication.k8s.io/v1\",\"kind\":\"TokenRequest\","
                            + "\"spec\":{\"expirationSeconds\":3600}}")).path("status").path("token").asText();
        }
        String path = Kube.configMapsPath(ns) + "/target";
        for (int i = 0; i < 100 && kube.send("GET", path, null, null, saToken).join().statusCode() != 200; i++) {
            Thread.sleep(100);
        }

        Histogram admin = Stats.histogram();
        Histogram account = Stats.histogram();
        long adminCount = 0;
        long accountCount = 0;
        round(path, null, Stats.histogram()); // warm-up, both paths
        round(path, saToken, Stats.histogram());
        System.out.println("| round | identity | GET/s | server CPU ms per GET |\n|---|---|---|---|");
        for (int r = 1; r <= rounds; r++) {
            double cpu = probe.cpuSeconds();
            long a = round(path, null, admin);
            double adminCpu = probe.cpuSeconds() - cpu;
            cpu = probe.cpuSeconds();
            long s = round(path, saToken, account);
            double accountCpu = probe.cpuSeconds() - cpu;
            adminCount += a;
            accountCount += s;
            System.out.printf(Locale.ROOT, "| %d | admin (system:masters) | %.0f | %s |%n| %d | %s (RBAC) | %.0f | %s |%n",
                    r, a / (double) seconds, cpuPerGet(adminCpu, a), r, subject(), s / (double) seconds,
                    cpuPerGet(accountCpu, s));
        }
        System.out.println(Stats.header());
        System.out.println(Stats.row("GET as admin (system:masters)", admin));
        System.out.println(Stats.row("GET as " + subject() + " (RBAC)", account));
        System.out.printf(Locale.ROOT, "RBAC / no authorization throughput: %.3f%n", accountCount / (double) adminCount);
    }

    private String cpuPerGet(double cpuSeconds, long gets) {
        return probe.cpuSeconds() < 0 || gets == 0 ? "n/a" : String.format(Locale.ROOT, "%.3f", cpuSeconds * 1000 / gets);
    }

    private String subject() {
        return userToken != null ? "user " + user : "service account";
    }

    /** Closed loop: {@code inFlight} requests, each followed by the next until the round's time is up. */
    private long round(String path, String bearer, Histogram latency) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        AtomicLong done = new AtomicLong();
        AtomicInteger failures = new AtomicInteger();
        CountDownLatch finished = new CountDownLatch(inFlight);
        for (int i = 0; i < inFlight; i++) {
            next(path, bearer, latency, deadline, done, failures, finished);
        }
        finished.await(seconds + 60L, TimeUnit.SECONDS);
        if (failures.get() > 0) {
            throw new IllegalStateException(failures.get() + " GETs failed");
        }
        return done.get();
    }

    private void next(String path, String bearer, Histogram latency, long deadline, AtomicLong done,
                      AtomicInteger failures, CountDownLatch finished) {
        if (System.nanoTime() - deadline >= 0) {
            finished.countDown();
            return;
        }
        long start = System.nanoTime();
        CompletableFuture<HttpResponse<byte[]>> f = kube.send("GET", path, null, null, bearer);
        f.whenComplete((r, t) -> {
            if (t != null || r.statusCode() != 200) {
                failures.incrementAndGet();
            } else {
                synchronized (latency) {
                    latency.recordValue(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start));
                }
                done.incrementAndGet();
            }
            next(path, bearer, latency, deadline, done, failures, finished);
        });
    }

    private static ObjectNode binding(String name, String roleKind, String role, String subject) throws Exception {
        return (ObjectNode) Kube.JSON.readTree("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":"
                + "\"RoleBinding\",\"metadata\":{\"name\":\"" + name + "\"},\"roleRef\":{\"apiGroup\":"
                + "\"rbac.authorization.k8s.io\",\"kind\":\"" + roleKind + "\",\"name\":\"" + role + "\"},"
                + "\"subjects\":[" + subject + "]}");
    }

    private void createIfMissing(String collection, Object body) throws Exception {
        HttpResponse<byte[]> r = kube.send("POST", collection, "application/json", Kube.JSON.writeValueAsBytes(body))
                .join();
        if (r.statusCode() != 201 && r.statusCode() != 409) {
            throw new IllegalStateException("POST " + collection + ": HTTP " + r.statusCode() + " " + new String(r.body()));
        }
    }
}
