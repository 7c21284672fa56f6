package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.itest.e2e.Kubectl.Result;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Services and the rest of core/v1 in resource-core, driven by the real kubectl: cluster IPs and
 * node ports drawn from their ranges and shown in kube's columns, a requested IP that is taken
 * refused with a 422, a deleted service's IP free for reuse, {@code kubectl expose}, headless
 * services, persistent volumes and claims, service accounts, quotas and limit ranges, {@code kubectl
 * explain}, and a server started with {@code --service-cluster-ip-range}. The methods run in order
 * on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlServicesIT extends KubectlSuite {
    /** The dynamic band of the default 10.0.0.0/24: kube's allocator leaves the first 16 addresses for requests. */
    private static final String DYNAMIC_IP = "10\\.0\\.0\\.(1[7-9]|[2-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|25[0-4])";

    private final Path distribution = Path.of(KubelixServer.property("kubelix.itest.distribution"));
    private String webIP;

    KubectlServicesIT() {
        super("services", "svc");
    }

    @Test
    @Order(1)
    void createServiceClusterIPGetsAnAddressFromTheRange() throws Exception {
        assertEquals("service/web created", kubectl.ok("create", "service", "clusterip", "web", "--tcp=80:8080").stdout().trim());

        List<String> lines = kubectl.ok("get", "svc", "web").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+TYPE\\s+CLUSTER-IP\\s+EXTERNAL-IP\\s+PORT\\(S\\)\\s+AGE"), lines::toString);
        assertTrue(lines.get(1).matches("web\\s+ClusterIP\\s+" + DYNAMIC_IP + "\\s+<none>\\s+80/TCP\\s+\\d+s"), lines::toString);
        List<String> wide = kubectl.ok("get", "services", "web", "-o", "wide").stdout().lines().toList();
        assertTrue(wide.get(0).endsWith("SELECTOR"), wide::toString);
        assertTrue(wide.get(1).matches("web\\s+ClusterIP\\s+\\S+\\s+<none>\\s+80/TCP\\s+\\d+s\\s+app=web"), wide::toString);

        JsonNode svc = JSON.readTree(kubectl.ok("get", "svc", "web", "-o", "json").stdout());
        JsonNode spec = svc.path("spec");
        webIP = spec.path("clusterIP").asText();
        assertEquals(webIP, spec.path("clusterIPs").path(0).asText(), svc::toString);
        assertEquals("None", spec.path("sessionAffinity").asText(), svc::toString);
        assertEquals("SingleStack", spec.path("ipFamilyPolicy").asText(), svc::toString);
        assertEquals("IPv4", spec.path("ipFamilies").path(0).asText(), svc::toString);
        assertEquals("Cluster", spec.path("internalTrafficPolicy").asText(), svc::toString);
        assertEquals("TCP", spec.path("ports").path(0).path("protocol").asText(), svc::toString);
        assertEquals(8080, spec.path("ports").path(0).path("targetPort").asInt(), svc::toString);
        assertTrue(svc.path("status").path("loadBalancer").isObject(), svc::toString);
    }

    @Test
    @Order(2)
    void createServiceNodePortGetsANodePortInRange() throws Exception {
        kubectl.ok("create", "service", "nodeport", "np", "--tcp=80:8080");
        List<String> lines = kubectl.ok("get", "svc", "np").stdout().lines().toList();
        assertTrue(lines.get(1).matches("np\\s+NodePort\\s+" + DYNAMIC_IP + "\\s+<none>\\s+80:3\\d{4}/TCP\\s+\\d+s"), lines::toString);
        JsonNode spec = JSON.readTree(kubectl.ok("get", "svc", "np", "-o", "json").stdout()).path("spec");
        int nodePort = spec.path("ports").path(0).path("nodePort").asInt();
        assertTrue(nodePort >= 30000 && nodePort <= 32767, spec::toString);
        assertEquals("Cluster", spec.path("externalTrafficPolicy").asText(), spec::toString);

        Result taken = kubectl.run("create", "service", "nodeport", "np2", "--tcp=81:8080", "--node-port=" + nodePort);
        assertNotEquals(0, taken.exitCode(), taken::toString);
        assertTrue(taken.stderr().contains("Service \"np2\" is invalid: spec.ports[0].nodePort: Invalid value: " + nodePort
                + ": provided port is already allocated"), taken::toString);
    }

    @Test
    @Order(3)
    void aRequestedIPThatIsTakenIs422AndADeletedServicesIPIsFreeAgain() throws Exception {
        Result taken = kubectl.run("create", "service", "clusterip", "other", "--tcp=80", "--clusterip=" + webIP);
        assertNotEquals(0, taken.exitCode(), taken::toString);
        assertTrue(taken.stderr().contains("Service \"other\" is invalid: spec.clusterIPs: Invalid value: []string{\""
                + webIP + "\"}: failed to allocate IP " + webIP + ": provided IP is already allocated"), taken::toString);
        Result outside = kubectl.run("create", "service", "clusterip", "other", "--tcp=80", "--clusterip=10.9.9.9");
        assertTrue(outside.stderr().contains("the provided IP (10.9.9.9) is not in the valid range. The range of valid IPs "
                + "is 10.0.0.0/24"), outside::toString);

        assertEquals("service \"web\" deleted", kubectl.ok("delete", "svc", "web").stdout().trim());
        kubectl.ok("create", "service", "clusterip", "web2", "--tcp=80", "--clusterip=" + webIP);
        assertTrue(kubectl.ok("get", "svc", "web2").stdout().contains(webIP));

        Result immutable = kubectl.run("patch", "svc", "web2", "--type=merge", "-p",
                "{\"spec\":{\"clusterIP\":\"10.0.0.3\",\"clusterIPs\":[\"10.0.0.3\"]}}");
        assertNotEquals(0, immutable.exitCode(), immutable::toString);
        assertTrue(immutable.stderr().contains("spec.clusterIPs[0]: Invalid value: []string{\"10.0.0.3\"}: may not change once set"),
                immutable::toString);
    }

    @Test
    @Order(4)
    void exposeADeploymentAndAHeadlessService() throws Exception {
        kubectl.ok("create", "deployment", "app", "--image=nginx");
        assertEquals("service/app exposed", kubectl.ok("expose", "deployment", "app", "--port=80", "--target-port=8080")
                .stdout().trim());
        JsonNode spec = JSON.readTree(kubectl.ok("get", "svc", "app", "-o", "json").stdout()).path("spec");
        assertEquals("app", spec.path("selector").path("app").asText(), spec::toString);
        assertEquals(8080, spec.path("ports").path(0).path("targetPort").asInt(), spec::toString);

        kubectl.ok("create", "service", "clusterip", "db", "--clusterip=None");
        assertTrue(kubectl.ok("get", "svc", "db").stdout().lines()
                .anyMatch(l -> l.matches("db\\s+ClusterIP\\s+None\\s+<none>\\s+<none>\\s+\\d+s")));

        kubectl.ok("create", "service", "externalname", "ext", "--external-name=example.com");
        assertTrue(kubectl.ok("get", "svc", "ext").stdout().lines()
                .anyMatch(l -> l.matches("ext\\s+ExternalName\\s+<none>\\s+example.com\\s+<none>\\s+\\d+s")));

        String all = kubectl.ok("get", "all").stdout();
        assertTrue(all.contains("service/app"), all);
        Result resources = kubectl.ok("api-resources", "--api-group=");
        for (String row : List.of("services\\s+svc\\s+v1\\s+true\\s+Service", "endpoints\\s+ep\\s+v1\\s+true\\s+Endpoints",
                "serviceaccounts\\s+sa\\s+v1\\s+true\\s+ServiceAccount", "persistentvolumes\\s+pv\\s+v1\\s+false\\s+PersistentVolume",
                "persistentvolumeclaims\\s+pvc\\s+v1\\s+true\\s+PersistentVolumeClaim",
                "resourcequotas\\s+quota\\s+v1\\s+true\\s+ResourceQuota", "limitranges\\s+limits\\s+v1\\s+true\\s+LimitRange")) {
            assertTrue(resources.stdout().lines().anyMatch(l -> l.matches(row)), row + " in\n" + resources.stdout());
        }
    }

    @Test
    @Order(5)
    void volumesClaimsServiceAccountsQuotasAndLimitRanges() throws Exception {
        Path file = work.resolve("core.yaml");
        Files.writeString(file, """
                apiVersion: v1
                kind: PersistentVolume
                metadata:
                  name: pv1
                spec:
                  capacity:
                    storage: 1Gi
                  accessModes: [ReadWriteOnce]
                  storageClassName: manual
                  hostPath:
                    path: /tmp/pv1
                ---
                apiVersion: v1
                kind: PersistentVolumeClaim
                metadata:
                  name: data
                spec:
                  accessModes: [ReadWriteOnce]
                  resources:
                    requests:
                      storage: 500Mi
                ---
                apiVersion: v1
                kind: LimitRange
                metadata:
                  name: limits
                spec:
                  limits:
                  - type: Container
                    default:
                      cpu: 500m
                    defaultRequest:
                      cpu: 100m
                    max:
                      cpu: "1"
                """, StandardCharsets.UTF_8);
        Result applied = kubectl.ok("apply", "-f", file.toString());
        assertTrue(applied.stdout().contains("persistentvolume/pv1 created"), applied::toString);

        List<String> pv = kubectl.ok("get", "pv").stdout().lines().toList();
        assertTrue(pv.get(0).matches("NAME\\s+CAPACITY\\s+ACCESS MODES\\s+RECLAIM POLICY\\s+STATUS\\s+CLAIM\\s+STORAGECLASS\\s+"
                + "VOLUMEATTRIBUTESCLASS\\s+REASON\\s+AGE"), pv::toString);
        assertTrue(pv.get(1).matches("pv1\\s+1Gi\\s+RWO\\s+Retain\\s+Pending\\s+manual\\s+<unset>\\s+\\d+s"), pv::toString);
        List<String> pvc = kubectl.ok("get", "pvc").stdout().lines().toList();
        assertTrue(pvc.get(0).matches("NAME\\s+STATUS\\s+VOLUME\\s+CAPACITY\\s+ACCESS MODES\\s+STORAGECLASS\\s+"
                + "VOLUMEATTRIBUTESCLASS\\s+AGE"), pvc::toString);
        assertTrue(pvc.get(1).matches("data\\s+Pending\\s+<unset>\\s+\\d+s"), pvc::toString);
        JsonNode claim = JSON.readTree(kubectl.ok("get", "pvc", "data", "-o", "json").stdout());
        assertEquals("Filesystem", claim.path("spec").path("volumeMode").asText(), claim::toString);
        Result resize = kubectl.run("patch", "pvc", "data", "--type=merge", "-p", "{\"spec\":{\"accessModes\":[\"ReadWriteMany\"]}}");
        assertTrue(resize.stderr().contains("spec: Forbidden: spec is immutable after creation"), resize::toString);
        Path noStorage = work.resolve("no-storage.yaml");
        Files.writeString(noStorage, "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: empty\nspec:\n"
                + "  accessModes: [ReadWriteOnce]\n", StandardCharsets.UTF_8);
        Result missing = kubectl.run("create", "-f", noStorage.toString());
        assertTrue(missing.stderr().contains("spec.resources[storage]: Required value"), missing::toString);

        assertEquals("serviceaccount/robot created", kubectl.ok("create", "serviceaccount", "robot").stdout().trim());
        assertTrue(kubectl.ok("get", "sa", "robot").stdout().lines().anyMatch(l -> l.matches("robot\\s+0\\s+\\d+s")));

        assertEquals("resourcequota/q created", kubectl.ok("create", "quota", "q", "--hard=pods=10,limits.cpu=2").stdout().trim());
        List<String> quota = kubectl.ok("get", "quota", "q").stdout().lines().toList();
        assertTrue(quota.get(0).matches("NAME\\s+AGE\\s+REQUEST\\s+LIMIT"), quota::toString);
        Result badQuota = kubectl.run("create", "quota", "bad", "--hard=pods=-1");
        assertTrue(badQuota.stderr().contains("spec.hard[pods]: Invalid value: \"-1\": must be greater than or equal to 0"),
                badQuota::toString);

        assertTrue(kubectl.ok("get", "limits").stdout().lines().anyMatch(l -> l.matches("limits\\s+\\d{4}-\\d\\d-\\d\\dT.*Z")));
        Path badLimits = work.resolve("bad-limits.yaml");
        Files.writeString(badLimits, "apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: bad\nspec:\n  limits:\n"
                + "  - type: Container\n    min:\n      cpu: \"2\"\n    max:\n      cpu: \"1\"\n", StandardCharsets.UTF_8);
        Result bad = kubectl.run("create", "-f", badLimits.toString());
        assertTrue(bad.stderr().contains("spec.limits[0].min[cpu]: Invalid value: \"2\": min value 2 is greater than max value 1"),
                bad::toString);
    }

    @Test
    @Order(6)
    void explainServiceSpecPorts() throws Exception {
        String explain = kubectl.ok("explain", "service.spec.ports").stdout();
        assertTrue(explain.contains("KIND:       Service") || explain.contains("KIND:     Service"), explain);
        for (String field : List.of("nodePort", "targetPort", "protocol", "appProtocol")) {
            assertTrue(explain.contains(field), field + " in\n" + explain);
        }
    }

    @Test
    @Order(7)
    void serviceClusterIPRangeFlagIsHonouredAndAMalformedOneStopsTheStart() throws Exception {
        Process bad = new ProcessBuilder(distribution.resolve("bin").resolve("kubelix").toString(),
                "--service-cluster-ip-range=10.0.0.0/8").redirectErrorStream(true).start();
        String out = new String(bad.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, bad.waitFor(), out);
        assertTrue(out.contains("invalid --service-cluster-ip-range \"10.0.0.0/8\""), out);

        Path otherWork = work.resolve("small-range");
        Files.createDirectories(otherWork.resolve("home"));
        try (KubelixServer other = KubelixServer.start(distribution, otherWork, READY_TIMEOUT,
                "--service-cluster-ip-range=10.96.0.0/28", "--service-node-port-range=31000-31009")) {
            Kubectl k = new Kubectl(System.getProperty("kubelix.itest.kubectl", "kubectl"), other.kubeconfig(),
                    otherWork.resolve("home"));
            other.awaitServed(k, READY_TIMEOUT, "svc");
            k.ok("create", "service", "nodeport", "small", "--tcp=80");
            JsonNode spec = JSON.readTree(k.ok("get", "svc", "small", "-o", "json").stdout()).path("spec");
            assertTrue(spec.path("clusterIP").asText().matches("10\\.96\\.0\\.([1-9]|1[0-4])"), spec::toString);
            int nodePort = spec.path("ports").path(0).path("nodePort").asInt();
            assertTrue(nodePort >= 31000 && nodePort <= 31009, spec::toString);
            Result outside = k.run("create", "service", "clusterip", "x", "--tcp=80", "--clusterip=10.0.0.5");
            assertTrue(outside.stderr().contains("The range of valid IPs is 10.96.0.0/28"), outside::toString);
        }
    }
}
