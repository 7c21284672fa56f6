package io.kubelix.runtime.controller.bootstrap;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.runtime.controller.ServedStores;
import io.kubelix.runtime.controller.informer.InformerFactory;
import io.kubelix.runtime.registry.GenericStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static io.kubelix.runtime.controller.bootstrap.KubernetesServiceController.ENDPOINTS;
import static io.kubelix.runtime.controller.bootstrap.KubernetesServiceController.ENDPOINT_SLICES;
import static io.kubelix.runtime.controller.bootstrap.KubernetesServiceController.SERVICES;
import static io.kubelix.runtime.controller.bootstrap.SystemNamespacesController.NAMESPACES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube-apiserver's bootstrap controllers over real Stores: what they create, what they put back, when their hooks complete. */
class BootstrapControllersTest {
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final Duration TICK = Duration.ofMillis(100);
    private static final Duration TTL = Duration.ofSeconds(1);
    private final ServedStores served = new ServedStores();
    private final InformerFactory informers = new InformerFactory(served);
    private SystemNamespacesController namespaces;
    private KubernetesServiceController kubernetes;

    @AfterEach
    void tearDown() {
        if (namespaces != null) {
            namespaces.deactivate();
        }
        if (kubernetes != null) {
            kubernetes.deactivate();
        }
        informers.stop();
        served.close();
    }

    /** A controller with the lease reconciler over the test's storage, its passes and lease TTL short. */
    private KubernetesServiceController controller(KubernetesService desired, InformerFactory informerFactory) {
        return new KubernetesServiceController(desired, "10.0.0.1", leases(), TICK, informerFactory, served);
    }

    private MasterLeases leases() {
        return new MasterLeases(served.rawStorage(MasterLeases.PREFIX), TTL, Clock.systemUTC());
    }

    private static CompletableFuture<Void> runHook(io.kubelix.api.server.PostStartHook hook) {
        return CompletableFuture.runAsync(() -> {
            try {
                hook.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static ObjectNode get(GenericStore store, String namespace, String name) {
        return store.get(RequestContext.system(namespace), name, "");
    }

    /** Waits until the object satisfies {@code wanted}; fails when it never does. */
    private static ObjectNode await(GenericStore store, String namespace, String name, Predicate<ObjectNode> wanted)
            throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                ObjectNode o = get(store, namespace, name);
                if (wanted.test(o)) {
                    return o;
                }
            } catch (StatusException e) {
                // not there yet
            }
            Thread.sleep(10);
        }
        throw new AssertionError(namespace + "/" + name + " never became what was expected");
    }

    @Test
    void theSystemNamespacesAreCreatedOnceNamespacesAreServedAndComeBackWhenDeleted() throws Exception {
        namespaces = new SystemNamespacesController(informers, served);
        CompletableFuture<Void> hook = runHook(namespaces);
        assertFalse(hook.isDone(), "the hook waits for the namespaces to exist");

        GenericStore store = served.serve(NAMESPACES, "Namespace", false);
        hook.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        for (String name : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
            assertEquals(name, get(store, "", name).path("metadata").path("name").asText());
        }

        String uid = get(store, "", "kube-node-lease").path("metadata").path("uid").asText();
        store.delete(RequestContext.system(""), "kube-node-lease", DeleteOptions.DEFAULT);
        await(store, "", "kube-node-lease", o -> !o.path("metadata").path("uid").asText().equals(uid));
    }

    @Test
    void theKubernetesServiceEndpointsAndSliceAreCreatedAndPutBackWhenChangedOrDeleted() throws Exception {
        GenericStore services = served.serve(SERVICES, "Service", true);
        GenericStore endpoints = served.serve(ENDPOINTS, "Endpoints", true);
        GenericStore slices = served.serve(ENDPOINT_SLICES, "EndpointSlice", true);
        kubernetes = controller(new KubernetesService("192.0.2.10", 6443), informers);
        runHook(kubernetes).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);

        ObjectNode svc = get(services, "default", "kubernetes");
        assertEquals("ClusterIP", svc.path("spec").path("type").asText());
        assertEquals("10.0.0.1", svc.path("spec").path("clusterIP").asText());
        assertEquals("{\"name\":\"https\",\"port\":443,\"protocol\":\"TCP\",\"targetPort\":6443}",
                svc.path("spec").path("ports").get(0).toString());
        assertEquals("apiserver", svc.path("metadata").path("labels").path("component").asText());
        assertEquals("[{\"addresses\":[{\"ip\":\"192.0.2.10\"}],\"ports\":[{\"name\":\"https\",\"port\":6443,"
                + "\"protocol\":\"TCP\"}]}]", get(endpoints, "default", "kubernetes").path("subsets").toString());
        ObjectNode slice = get(slices, "default", "kubernetes");
        assertEquals("IPv4", slice.path("addressType").asText());
        assertEquals("[\"192.0.2.10\"]", slice.path("endpoints").get(0).path("addresses").toString());
        assertEquals("kubernetes", slice.path("metadata").path("labels").path("kubernetes.io/service-name").asText());

        // Changed: put back, what else was changed kept.
        endpoints.update(RequestContext.system("default"), "kubernetes", (ctx, cur) -> {
            ObjectNode next = cur.deepCopy();
            next.putArray("subsets");
            ((ObjectNode) next.path("metadata")).with("annotations").put("note", "mine");
            return next;
        }, UpdateOptions.DEFAULT);
        ObjectNode restored = await(endpoints, "default", "kubernetes", o -> o.path("subsets").size() == 1);
        assertEquals("mine", restored.path("metadata").path("annotations").path("note").asText());
        services.update(RequestContext.system("default"), "kubernetes", (ctx, cur) -> {
            ObjectNode next = cur.deepCopy();
            ((ObjectNode) next.path("spec").path("ports").get(0)).put("port", 8443);
            return next;
        }, UpdateOptions.DEFAULT);
        await(services, "default", "kubernetes", o -> o.path("spec").path("ports").get(0).path("port").asInt() == 443);

        // Deleted: created again.
        String uid = get(slices, "default", "kubernetes").path("metadata").path("uid").asText();
        slices.delete(RequestContext.system("default"), "kubernetes", DeleteOptions.DEFAULT);
        await(slices, "default", "kubernetes", o -> !o.path("metadata").path("uid").asText().equals(uid));
        services.delete(RequestContext.system("default"), "kubernetes", DeleteOptions.DEFAULT);
        await(services, "default", "kubernetes", o -> o.path("spec").path("clusterIP").asText().equals("10.0.0.1"));
    }

    @Test
    void serversSharingAStorageAreAllListedAndStopWritingOnceTheyAgree() throws Exception {
        GenericStore services = served.serve(SERVICES, "Service", true);
        GenericStore endpoints = served.serve(ENDPOINTS, "Endpoints", true);
        GenericStore slices = served.serve(ENDPOINT_SLICES, "EndpointSlice", true);
        kubernetes = controller(new KubernetesService("192.0.2.11", 6443), informers);
        // The other server has its own informers, as another process has.
        InformerFactory otherInformers = new InformerFactory(served);
        KubernetesServiceController other = controller(new KubernetesService("192.0.2.10", 6443), otherInformers);
        try {
            runHook(kubernetes).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            runHook(other).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            String both = "[{\"addresses\":[{\"ip\":\"192.0.2.10\"},{\"ip\":\"192.0.2.11\"}],\"ports\":[{\"name\":"
                    + "\"https\",\"port\":6443,\"protocol\":\"TCP\"}]}]";
            await(endpoints, "default", "kubernetes", o -> o.path("subsets").toString().equals(both));
            ObjectNode slice = await(slices, "default", "kubernetes", o -> o.path("endpoints").size() == 2);
            assertEquals("[\"192.0.2.10\"]", slice.path("endpoints").get(0).path("addresses").toString());
            assertEquals("[\"192.0.2.11\"]", slice.path("endpoints").get(1).path("addresses").toString());

            // Agreed: ten passes of each write nothing more.
            List<String> before = versions(services, endpoints, slices);
            Thread.sleep(TICK.toMillis() * 10);
            assertEquals(before, versions(services, endpoints, slices));

            // One stops (the server's pre-shutdown hook): its lease and its IP go at once, and the other keeps the rest.
            new KubernetesServiceShutdown(other).run();
            String one = both.replace("{\"ip\":\"192.0.2.10\"},", "");
            assertEquals(one, get(endpoints, "default", "kubernetes").path("subsets").toString());
            assertEquals(1, get(slices, "default", "kubernetes").path("endpoints").size());
            assertEquals(List.of("192.0.2.11"), List.copyOf(leases().list()));
            before = versions(services, endpoints, slices);
            Thread.sleep(TICK.toMillis() * 10);
            assertEquals(before, versions(services, endpoints, slices));
        } finally {
            other.deactivate();
            otherInformers.stop();
        }
    }

    @Test
    void aServerThatDiesWithoutStoppingIsDroppedOnceItsLeaseExpires() throws Exception {
        served.serve(SERVICES, "Service", true);
        GenericStore endpoints = served.serve(ENDPOINTS, "Endpoints", true);
        GenericStore slices = served.serve(ENDPOINT_SLICES, "EndpointSlice", true);
        // A server that renewed its lease once and then vanished.
        leases().update("192.0.2.99");
        kubernetes = controller(new KubernetesService("192.0.2.10", 6443), informers);
        runHook(kubernetes).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        long listed = System.nanoTime();
        await(endpoints, "default", "kubernetes", o -> o.path("subsets").get(0).path("addresses").size() == 2);
        ObjectNode left = await(endpoints, "default", "kubernetes",
                o -> o.path("subsets").get(0).path("addresses").size() == 1);
        assertTrue(System.nanoTime() - listed >= TTL.toNanos() / 2, "listed until its lease expired");
        assertEquals("192.0.2.10", left.path("subsets").get(0).path("addresses").get(0).path("ip").asText());
        await(slices, "default", "kubernetes", o -> o.path("endpoints").size() == 1);
        assertEquals(List.of("192.0.2.10"), List.copyOf(leases().list()), "the expired record is deleted");
        assertEquals(0, served.rawStorage(MasterLeases.PREFIX).getList(MasterLeases.PREFIX + "/192.0.2.99",
                io.kubelix.api.storage.ListOptions.recursiveAll()).items().size());
    }

    @Test
    void withEndpointReconcilerNoneTheServiceIsKeptButNotItsEndpoints() throws Exception {
        GenericStore services = served.serve(SERVICES, "Service", true);
        GenericStore endpoints = served.serve(ENDPOINTS, "Endpoints", true);
        kubernetes = new KubernetesServiceController(new KubernetesService("192.0.2.10", 6443), "10.0.0.1", null,
                TICK, informers, served);
        runHook(kubernetes).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertEquals("10.0.0.1", get(services, "default", "kubernetes").path("spec").path("clusterIP").asText());
        assertEquals(0, endpoints.list(RequestContext.system("default"),
                io.kubelix.api.storage.ListOptions.recursiveAll()).items().size());
    }

    private static List<String> versions(GenericStore... stores) {
        return java.util.Arrays.stream(stores)
                .map(s -> get(s, "default", "kubernetes").path("metadata").path("resourceVersion").asText()).toList();
    }

    @Test
    void withoutEndpointSlicesServedTheHookCompletesWithTheServiceAndEndpoints() throws Exception {
        kubernetes = controller(new KubernetesService("fd00::10", 6443), informers);
        CompletableFuture<Void> hook = runHook(kubernetes);
        assertFalse(hook.isDone(), "nothing is served yet");
        GenericStore services = served.serve(SERVICES, "Service", true);
        GenericStore endpoints = served.serve(ENDPOINTS, "Endpoints", true);
        hook.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertEquals("fd00::10", get(endpoints, "default", "kubernetes").path("subsets").get(0).path("addresses")
                .get(0).path("ip").asText());
        assertEquals("ClusterIP", get(services, "default", "kubernetes").path("spec").path("type").asText());

        GenericStore slices = served.serve(ENDPOINT_SLICES, "EndpointSlice", true);
        assertEquals("IPv6", await(slices, "default", "kubernetes", o -> true).path("addressType").asText());
    }

    @Test
    void aLoopbackAdvertiseAddressGetsTheServiceButNoEndpoints() throws Exception {
        GenericStore services = served.serve(SERVICES, "Service", true);
        GenericStore endpoints = served.serve(ENDPOINTS, "Endpoints", true);
        kubernetes = controller(new KubernetesService("127.0.0.1", 6443), informers);
        runHook(kubernetes).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertEquals("10.0.0.1", get(services, "default", "kubernetes").path("spec").path("clusterIP").asText());
        assertEquals(0, endpoints.list(RequestContext.system("default"),
                io.kubelix.api.storage.ListOptions.recursiveAll()).items().size());
    }

    @Test
    void theAdvertiseAddressIsTheFlagOrTheBindAddressAndTheServiceIpTheRangesFirst() {
        assertEquals("192.0.2.7", KubernetesServiceController.advertiseAddress("192.0.2.7", "127.0.0.1"));
        assertEquals("192.0.2.5", KubernetesServiceController.advertiseAddress(null, "192.0.2.5"));
        // Unspecified or loopback: this host's address, as kube chooses it, never the unspecified one.
        assertFalse(KubernetesServiceController.advertiseAddress(null, "0.0.0.0").equals("0.0.0.0"));
        assertFalse(KubernetesServiceController.advertiseAddress(null, "::").contains("::"));
        assertThrows(IllegalArgumentException.class, () -> KubernetesServiceController.advertiseAddress("example.com", "127.0.0.1"));
        assertThrows(IllegalArgumentException.class, () -> KubernetesServiceController.advertiseAddress("0.0.0.0", "127.0.0.1"));
        assertEquals("10.0.0.1", KubernetesService.firstAddress("10.0.0.0/24"));
        assertEquals("10.96.0.1", KubernetesService.firstAddress("10.96.0.0/12"));
        assertEquals("fd00::1", KubernetesService.firstAddress("fd00::/108"), "Go's text form, as the ClusterIP is written");
    }
}
