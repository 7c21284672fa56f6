package io.kubelix.resource.core.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.GenericLister;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.resource.core.testing.Json;
import io.kubelix.testing.store.MapStore;
import io.kubelix.resource.core.testing.MemoryRanges;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The service REST with a real storage-memory backend under its allocation records. */
class ServiceRESTTest {
    private static final RequestContext CTX = RequestContext.system("default");
    private final MemoryRanges memory = new MemoryRanges();
    private final MapStore store = new MapStore(ServiceSpecs.serviceSpec(ServiceCIDR.IPV4));
    private ServiceAllocators allocators = allocators("10.0.0.0/24");
    private ServiceREST rest = new ServiceREST(store, allocators, new ServiceRepair(current(), allocators));

    @AfterEach
    void close() {
        memory.close();
    }

    private ServiceAllocators allocators(String cidr) {
        return new ServiceAllocators(memory.storage(ServiceAllocators.RANGES_PREFIX), ServiceCIDR.parse(cidr), NodePortRange.parse("30000-32767"));
    }

    private static ObjectNode svc(String name, String specJson) {
        return Json.obj("{'apiVersion':'v1','kind':'Service','metadata':{'name':'" + name + "','namespace':'default'},"
                + "'spec':" + specJson + "}");
    }

    private ObjectNode create(String name, String specJson) {
        return rest.create(CTX, svc(name, specJson), CreateOptions.DEFAULT);
    }

    private static final String WEB = "{'selector':{'app':'web'},'ports':[{'port':80,'targetPort':8080}]}";

    @Test
    void aClusterIPServiceGetsAnAddressFromTheUpperBandOfTheRange() {
        ObjectNode created = create("web", WEB);
        String ip = created.path("spec").path("clusterIP").asText();
        int offset = allocators.cidr().offsetOf(ip);
        assertTrue(offset >= 16, "dynamic IPs come from above the static band: " + ip);
        assertEquals(ip, created.path("spec").path("clusterIPs").path(0).asText());
        assertEquals(List.of("IPv4"), List.of(created.path("spec").path("ipFamilies").path(0).asText()));
        assertTrue(allocators.ipAllocator().isAllocated(offset));
    }

    @Test
    void aRequestedIPThatIsTakenIsA422AndOneOutsideTheRangeToo() {
        create("a", "{'clusterIP':'10.0.0.10','ports':[{'port':80}]}");
        StatusException taken = assertThrows(StatusException.class,
                () -> create("b", "{'clusterIP':'10.0.0.10','ports':[{'port':80}]}"));
        assertEquals(422, taken.code());
        assertEquals("Service \"b\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.0.0.10\"}: failed to "
                + "allocate IP 10.0.0.10: provided IP is already allocated", taken.getMessage());
        StatusException outside = assertThrows(StatusException.class,
                () -> create("c", "{'clusterIP':'10.1.0.10','ports':[{'port':80}]}"));
        assertEquals("Service \"c\" is invalid: spec.clusterIPs: Invalid value: []string{\"10.1.0.10\"}: failed to "
                + "allocate IP 10.1.0.10: the provided IP (10.1.0.10) is not in the valid range. The range of valid IPs "
                + "is 10.0.0.0/24", outside.getMessage());
    }

    @Test
    void anIPOfAFamilyTheClusterHasNotIsA422() {
        StatusException v6 = assertThrows(StatusException.class,
                () -> create("v6", "{'clusterIP':'fd00::10','ports':[{'port':80}]}"));
        assertEquals("Service \"v6\" is invalid: spec.clusterIPs[0]: Invalid value: []string{\"fd00::10\"}: IPv6 is not "
                + "configured on this cluster", v6.getMessage());
    }

    @Test
    void deleteFreesTheIPForReuse() {
        create("a", "{'clusterIP':'10.0.0.10','ports':[{'port':80}]}");
        rest.delete(CTX, "a", DeleteOptions.DEFAULT);
        assertFalse(allocators.ipAllocator().isAllocated(allocators.cidr().offsetOf("10.0.0.10")));
        assertEquals("10.0.0.10", create("b", "{'clusterIP':'10.0.0.10','ports':[{'port':80}]}")
                .path("spec").path("clusterIP").asText());
    }

    @Test
    void aCreateThatFailsValidationGivesBackWhatItTook() {
        StatusException invalid = assertThrows(StatusException.class,
                () -> create("bad", "{'type':'NodePort','clusterIP':'10.0.0.10','ports':[{'port':80,'nodePort':30080,'protocol':'XTP'}]}"));
        assertEquals(422, invalid.code());
        assertTrue(allocators.ipAllocator().read().isEmpty(), "no IP leaked");
        assertTrue(allocators.nodePortAllocator().read().isEmpty(), "no node port leaked");
        StatusException exists = assertThrows(StatusException.class, () -> {
            create("dup", WEB);
            create("dup", WEB);
        });
        assertEquals(409, exists.code());
        assertEquals(1, allocators.ipAllocator().read().cardinality(), "the refused duplicate gave its IP back");
    }

    @Test
    void headlessAndExternalNameServicesTakeNoIP() {
        ObjectNode headless = create("h", "{'clusterIP':'None','selector':{'app':'h'}}");
        assertEquals("None", headless.path("spec").path("clusterIP").asText());
        ObjectNode external = create("e", "{'type':'ExternalName','externalName':'example.com'}");
        assertTrue(external.path("spec").path("clusterIP").isMissingNode());
        assertTrue(allocators.ipAllocator().read().isEmpty());
    }

    @Test
    void nodePortServicesGetAPortInRangeAndARequestedTakenPortIsA422() {
        ObjectNode np = create("np", "{'type':'NodePort','ports':[{'port':80,'targetPort':8080}]}");
        int port = np.path("spec").path("ports").path(0).path("nodePort").asInt();
        assertTrue(port >= 30000 && port <= 32767, "in range: " + port);
        assertEquals("Cluster", np.path("spec").path("externalTrafficPolicy").asText());
        StatusException taken = assertThrows(StatusException.class, () -> create("np2",
                "{'type':'NodePort','ports':[{'port':80,'nodePort':" + port + "}]}"));
        assertEquals("Service \"np2\" is invalid: spec.ports[0].nodePort: Invalid value: " + port
                + ": provided port is already allocated", taken.getMessage());
        StatusException outside = assertThrows(StatusException.class, () -> create("np3",
                "{'type':'NodePort','ports':[{'port':80,'nodePort':80}]}"));
        assertEquals("Service \"np3\" is invalid: spec.ports[0].nodePort: Invalid value: 80: provided port is not in "
                + "the valid range. The range of valid ports is 30000-32767", outside.getMessage());
        assertEquals(1, allocators.nodePortAllocator().read().cardinality(), "the failed creates took nothing");
    }

    @Test
    void tcpAndUdpOnOnePortShareTheirNodePort() {
        ObjectNode dns = create("dns", "{'type':'NodePort','ports':[{'name':'tcp','port':53,'protocol':'TCP'},"
                + "{'name':'udp','port':53,'protocol':'UDP'}]}");
        assertEquals(dns.path("spec").path("ports").path(0).path("nodePort"), dns.path("spec").path("ports").path(1).path("nodePort"));
        assertEquals(1, allocators.nodePortAllocator().read().cardinality());
    }

    @Test
    void anUpdateKeepsWhatAPutLeavesOutAndReleasesNodePortsWhenTheTypeChangesAway() {
        ObjectNode np = create("np", "{'type':'NodePort','ports':[{'port':80}]}");
        String ip = np.path("spec").path("clusterIP").asText();
        ObjectNode put = svc("np", "{'type':'NodePort','ports':[{'port':80}]}");
        ObjectNode kept = rest.update(CTX, "np", (c, old) -> put, UpdateOptions.DEFAULT).object();
        assertEquals(ip, kept.path("spec").path("clusterIP").asText());
        assertEquals(np.path("spec").path("ports").path(0).path("nodePort"), kept.path("spec").path("ports").path(0).path("nodePort"));
        ObjectNode toClusterIP = rest.update(CTX, "np", (c, old) -> {
            ((ObjectNode) old.path("spec")).put("type", "ClusterIP");
            return old;
        }, UpdateOptions.DEFAULT).object();
        assertTrue(toClusterIP.path("spec").path("ports").path(0).path("nodePort").isMissingNode());
        assertTrue(toClusterIP.path("spec").path("externalTrafficPolicy").isMissingNode());
        assertTrue(allocators.nodePortAllocator().read().isEmpty(), "node port released");
        rest.update(CTX, "np", (c, old) -> {
            ObjectNode spec = (ObjectNode) old.path("spec");
            spec.put("type", "ExternalName");
            spec.put("externalName", "example.com");
            return old;
        }, UpdateOptions.DEFAULT);
        assertTrue(allocators.ipAllocator().read().isEmpty(), "cluster IP released");
    }

    @Test
    void theClusterIPIsImmutableAndARefusedUpdateKeepsTheOldAllocations() {
        ObjectNode web = create("web", "{'clusterIP':'10.0.0.20','ports':[{'port':80}]}");
        StatusException e = assertThrows(StatusException.class, () -> rest.update(CTX, "web", (c, old) -> {
            ObjectNode spec = (ObjectNode) old.path("spec");
            spec.put("clusterIP", "10.0.0.21");
            spec.putArray("clusterIPs").add("10.0.0.21");
            return old;
        }, UpdateOptions.DEFAULT));
        assertEquals("Service \"web\" is invalid: spec.clusterIPs[0]: Invalid value: []string{\"10.0.0.21\"}: may not "
                + "change once set", e.getMessage());
        assertTrue(allocators.ipAllocator().isAllocated(allocators.cidr().offsetOf("10.0.0.20")));
        assertEquals(1, allocators.ipAllocator().read().cardinality());
        assertEquals(web.path("spec"), store.objects.get("web").path("spec"));
    }

    @Test
    void aDryRunChecksButTakesNothing() {
        create("a", "{'clusterIP':'10.0.0.10','ports':[{'port':80}]}");
        ObjectNode dry = rest.create(CTX, svc("b", "{'type':'NodePort','ports':[{'port':80}]}"), new CreateOptions(true, null));
        assertFalse(dry.path("spec").path("clusterIP").asText().isEmpty(), "the answer shows an address");
        assertEquals(1, allocators.ipAllocator().read().cardinality());
        assertTrue(allocators.nodePortAllocator().read().isEmpty());
        assertThrows(StatusException.class, () -> rest.create(CTX, svc("c", "{'clusterIP':'10.0.0.10','ports':[{'port':80}]}"),
                new CreateOptions(true, null)));
        rest.delete(CTX, "a", new DeleteOptions(true, null, null, null));
        assertEquals(1, allocators.ipAllocator().read().cardinality(), "a dry-run delete keeps the IP");
    }

    @Test
    void deleteCollectionReleasesEveryDeletedService() {
        create("a", WEB);
        create("b", "{'type':'NodePort','ports':[{'port':80}]}");
        rest.deleteCollection(CTX, DeleteOptions.DEFAULT, ListOptions.recursiveAll());
        assertTrue(allocators.ipAllocator().read().isEmpty());
        assertTrue(allocators.nodePortAllocator().read().isEmpty());
    }

    @Test
    void allocationsOutliveTheAllocatorsAndConcurrentCreatesGetDistinctIPs() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Callable<String>> tasks = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                String name = "s" + i;
                tasks.add(() -> create(name, WEB).path("spec").path("clusterIP").asText());
            }
            Set<String> ips = new HashSet<>();
            for (Future<String> f : pool.invokeAll(tasks)) {
                assertTrue(ips.add(f.get()), "one IP handed out twice");
            }
        } finally {
            pool.shutdownNow();
        }
        // A restarted server (new allocators, same storage) knows every allocation.
        allocators = allocators("10.0.0.0/24");
        rest = new ServiceREST(store, allocators, new ServiceRepair(current(), allocators));
        assertEquals(60, allocators.ipAllocator().read().cardinality());
        String taken = store.objects.get("s7").path("spec").path("clusterIP").asText();
        assertEquals(422, assertThrows(StatusException.class,
                () -> create("again", "{'clusterIP':'" + taken + "','ports':[{'port':80}]}")).code());
    }

    @Test
    void stoppingTheRepairWaitsForItsRunningPassAndNoPassRunsAfterIt() throws Exception {
        create("a", "{'clusterIP':'10.0.0.10','ports':[{'port':80}]}");
        java.util.concurrent.CountDownLatch inPass = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger passes = new java.util.concurrent.atomic.AtomicInteger();
        SharedIndexInformer services = informer(() -> {
            passes.incrementAndGet();
            inPass.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return List.copyOf(store.objects.values());
        }, () -> Long.toString(Long.MAX_VALUE));
        ServiceRepair repair = new ServiceRepair(services, allocators);
        Thread pass = new Thread(repair::runOnce);
        pass.start();
        inPass.await();
        Thread stopping = new Thread(repair::stop);
        stopping.start();
        stopping.join(300);
        assertTrue(stopping.isAlive(), "stop waits for the running pass");
        release.countDown();
        stopping.join(10_000);
        pass.join(10_000);
        assertFalse(stopping.isAlive());

        repair.runOnce(); // a pass the executor had begun before stop(): it must not run
        assertEquals(1, passes.get());
    }

    /**
     * The repair reads services from their informer: while its cache has not reached the records'
     * revision (a service deleted since may still be in it) a pass does nothing.
     */
    @Test
    void aRepairPassWaitsForTheInformerToReachTheRecordsRevision() {
        create("a", "{'clusterIP':'10.0.0.10','ports':[{'port':80}]}");
        allocators = allocators("10.0.0.0/23"); // a new record, without a's address
        java.util.concurrent.atomic.AtomicReference<String> seen = new java.util.concurrent.atomic.AtomicReference<>("1");
        ServiceRepair repair = new ServiceRepair(informer(() -> List.copyOf(store.objects.values()), seen::get),
                allocators);
        allocators.ipAllocator().allocate(allocators.cidr().offsetOf("10.0.1.5"));

        assertFalse(repair.runOnce(), "the cache is behind the records");
        assertFalse(allocators.ipAllocator().isAllocated(allocators.cidr().offsetOf("10.0.0.10")), "nothing repaired");
        seen.set(allocators.ipAllocator().snapshot().resourceVersion());
        assertTrue(repair.runOnce());
        assertTrue(allocators.ipAllocator().isAllocated(allocators.cidr().offsetOf("10.0.0.10")), "recorded again");
    }

    /** An informer of {@code objects}, synced, at revision {@code rv}: all the repair reads of it. */
    private static SharedIndexInformer informer(java.util.function.Supplier<List<ObjectNode>> objects,
                                                java.util.function.Supplier<String> rv) {
        GenericLister lister = (GenericLister) Proxy.newProxyInstance(ServiceRESTTest.class.getClassLoader(),
                new Class<?>[] {GenericLister.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("list")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    return objects.get();
                });
        return (SharedIndexInformer) Proxy.newProxyInstance(ServiceRESTTest.class.getClassLoader(),
                new Class<?>[] {SharedIndexInformer.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "lister" -> lister;
                    case "hasSynced" -> true;
                    case "lastSyncResourceVersion" -> rv.get();
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    /** An informer of the test's services that is always up to date. */
    private SharedIndexInformer current() {
        return informer(() -> List.copyOf(store.objects.values()), () -> Long.toString(Long.MAX_VALUE));
    }

    @Test
    void repairRecordsWhatServicesHoldAndReleasesLeaksAfterThreePasses() {
        create("a", "{'clusterIP':'10.0.0.10','ports':[{'port':80}]}");
        // A range change (or a lost record) leaves the new record without a.
        allocators = allocators("10.0.0.0/23");
        ServiceRepair repair = new ServiceRepair(current(), allocators);
        allocators.ipAllocator().allocate(allocators.cidr().offsetOf("10.0.1.5")); // a leak: no service holds it
        repair.runOnce();
        assertTrue(allocators.ipAllocator().isAllocated(allocators.cidr().offsetOf("10.0.0.10")), "recorded again");
        assertTrue(allocators.ipAllocator().isAllocated(allocators.cidr().offsetOf("10.0.1.5")), "not yet released");
        repair.runOnce();
        assertTrue(allocators.ipAllocator().isAllocated(allocators.cidr().offsetOf("10.0.1.5")));
        repair.runOnce();
        assertFalse(allocators.ipAllocator().isAllocated(allocators.cidr().offsetOf("10.0.1.5")), "released");
        assertTrue(allocators.ipAllocator().isAllocated(allocators.cidr().offsetOf("10.0.0.10")));
    }
}
