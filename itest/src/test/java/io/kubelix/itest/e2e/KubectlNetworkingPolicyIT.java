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
 * The networking.k8s.io, policy, discovery.k8s.io and coordination.k8s.io plugins
 * (resource-networking, resource-policy, resource-discovery, resource-coordination) in the built
 * distribution, driven by the real kubectl: {@code create ingress} and {@code create pdb}, the other
 * kinds through {@code apply -f} (twice: created, then unchanged or configured), {@code get} with
 * kube's columns and short names, kube's defaults, {@code explain}, a 422 per group with kube's
 * message, delete, and {@code api-resources --api-group=...}. The methods run in order on one server.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlNetworkingPolicyIT extends KubectlSuite {
    KubectlNetworkingPolicyIT() {
        super("networking", "ing,pdb,endpointslices,leases");
    }

    @Test
    @Order(1)
    void createIngressAndGetItWithKubesColumns() throws Exception {
        assertEquals("ingress.networking.k8s.io/web created", kubectl.ok("create", "ingress", "web", "--class=nginx",
                "--rule=foo.com/bar=svc1:8080", "--rule=bar.com/*=svc2:http,tls=my-cert").stdout().trim());

        List<String> lines = kubectl.ok("get", "ing").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+CLASS\\s+HOSTS\\s+ADDRESS\\s+PORTS\\s+AGE"), lines::toString);
        assertTrue(lines.get(1).matches("web\\s+nginx\\s+foo.com,bar.com\\s+80, 443\\s+\\d+s"), lines::toString);

        JsonNode ing = JSON.readTree(kubectl.ok("get", "ingress", "web", "-o", "json").stdout());
        JsonNode paths = ing.path("spec").path("rules");
        assertEquals("Exact", paths.path(0).path("http").path("paths").path(0).path("pathType").asText(), ing::toString);
        assertEquals("Prefix", paths.path(1).path("http").path("paths").path(0).path("pathType").asText(), ing::toString);
        assertEquals("{\"name\":\"http\"}", paths.path(1).path("http").path("paths").path(0).path("backend").path("service")
                .path("port").toString(), ing::toString);
        assertEquals(1, ing.path("metadata").path("generation").asInt(), ing::toString);

        kubectl.ok("patch", "ingress", "web", "--subresource=status", "--type=merge", "-p",
                "{\"status\":{\"loadBalancer\":{\"ingress\":[{\"ip\":\"203.0.113.7\"}]}}}");
        assertTrue(kubectl.ok("get", "ingresses.networking.k8s.io", "web").stdout().lines()
                .anyMatch(l -> l.matches("web\\s+nginx\\s+foo.com,bar.com\\s+203.0.113.7\\s+80, 443\\s+\\d+s")));
    }

    @Test
    @Order(2)
    void invalidIngressIs422() throws Exception {
        Path file = work.resolve("bad-ingress.yaml");
        Files.writeString(file, "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: bad\nspec:\n  rules:\n"
                + "  - host: foo.com\n    http:\n      paths:\n      - path: /api\n        backend:\n          service:\n"
                + "            name: api\n            port:\n              number: 80\n", StandardCharsets.UTF_8);
        Result r = kubectl.run("create", "-f", file.toString());
        assertNotEquals(0, r.exitCode(), r::toString);
        assertTrue(r.stderr().contains("The Ingress \"bad\" is invalid: spec.rules[0].http.paths[0].pathType: Required value: "
                + "pathType must be specified"), r::toString);
    }

    @Test
    @Order(3)
    void ingressClassesAndNetworkPoliciesApplyTwice() throws Exception {
        Path file = work.resolve("networking.yaml");
        String manifest = "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata:\n  name: nginx\nspec:\n"
                + "  controller: k8s.io/ingress-nginx\n---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n"
                + "  name: db\nspec:\n  podSelector:\n    matchLabels:\n      app: db\n  ingress:\n  - from:\n"
                + "    - podSelector:\n        matchLabels:\n          app: api\n    ports:\n    - port: PORT\n";
        Files.writeString(file, manifest.replace("PORT", "5432"), StandardCharsets.UTF_8);
        String first = kubectl.ok("apply", "-f", file.toString()).stdout();
        assertTrue(first.contains("ingressclass.networking.k8s.io/nginx created"), first);
        assertTrue(first.contains("networkpolicy.networking.k8s.io/db created"), first);
        Files.writeString(file, manifest.replace("PORT", "5433"), StandardCharsets.UTF_8);
        String second = kubectl.ok("apply", "-f", file.toString()).stdout();
        assertTrue(second.contains("ingressclass.networking.k8s.io/nginx unchanged"), second);
        assertTrue(second.contains("networkpolicy.networking.k8s.io/db configured"), second);

        JsonNode policy = JSON.readTree(kubectl.ok("get", "netpol", "db", "-o", "json").stdout());
        assertEquals("[\"Ingress\"]", policy.path("spec").path("policyTypes").toString(), policy::toString);
        assertEquals("TCP", policy.path("spec").path("ingress").path(0).path("ports").path(0).path("protocol").asText());
        assertTrue(kubectl.ok("get", "netpol").stdout().lines().anyMatch(l -> l.matches("db\\s+app=db\\s+\\d+s")));
        assertTrue(kubectl.ok("get", "ingressclass").stdout().lines()
                .anyMatch(l -> l.matches("nginx\\s+k8s.io/ingress-nginx\\s+<none>\\s+\\d+s")));
        Result namespaced = kubectl.run("get", "ingressclass", "nginx", "-n", "kube-system", "-o", "name");
        assertEquals("ingressclass.networking.k8s.io/nginx", namespaced.stdout().trim(), "cluster-scoped: " + namespaced);

        String explain = kubectl.ok("explain", "ingress.spec.rules.http.paths.pathType").stdout();
        assertTrue(explain.contains("GROUP:      networking.k8s.io") && explain.contains("pathType <string>"), explain);
    }

    @Test
    @Order(4)
    void createPdbAndItsColumns() throws Exception {
        assertEquals("poddisruptionbudget.policy/rails created", kubectl.ok("create", "pdb", "rails", "--selector=app=rails",
                "--min-available=1").stdout().trim());
        List<String> lines = kubectl.ok("get", "pdb").stdout().lines().toList();
        assertTrue(lines.get(0).matches("NAME\\s+MIN AVAILABLE\\s+MAX UNAVAILABLE\\s+ALLOWED DISRUPTIONS\\s+AGE"), lines::toString);
        assertTrue(lines.get(1).matches("rails\\s+1\\s+N/A\\s+0\\s+\\d+s"), lines::toString);

        Result both = kubectl.run("create", "pdb", "both", "--selector=app=x", "--min-available=1", "--max-unavailable=1");
        assertNotEquals(0, both.exitCode(), both::toString);
        Path file = work.resolve("pdb.yaml");
        Files.writeString(file, "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: both\nspec:\n"
                + "  minAvailable: 1\n  maxUnavailable: 1\n  selector:\n    matchLabels:\n      app: x\n", StandardCharsets.UTF_8);
        Result invalid = kubectl.run("create", "-f", file.toString());
        assertTrue(invalid.stderr().contains("The PodDisruptionBudget \"both\" is invalid: spec: Invalid value: ")
                && invalid.stderr().contains("minAvailable and maxUnavailable cannot be both set"), invalid::toString);

        kubectl.ok("patch", "pdb", "rails", "--subresource=status", "--type=merge", "-p",
                "{\"status\":{\"disruptionsAllowed\":2,\"currentHealthy\":3,\"desiredHealthy\":1,\"expectedPods\":3}}");
        assertTrue(kubectl.ok("get", "poddisruptionbudgets.policy", "rails").stdout().lines()
                .anyMatch(l -> l.matches("rails\\s+1\\s+N/A\\s+2\\s+\\d+s")));
        String explain = kubectl.ok("explain", "pdb.spec").stdout();
        assertTrue(explain.contains("GROUP:      policy") && explain.contains("unhealthyPodEvictionPolicy\t<string>"), explain);
    }

    @Test
    @Order(5)
    void endpointSlicesAndLeasesApplyTwiceAndValidate() throws Exception {
        Path file = work.resolve("slices.yaml");
        String manifest = "apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: web-abc\naddressType: IPv4\n"
                + "endpoints:\n- addresses: [\"10.1.0.1\", \"10.1.0.2\"]\n  conditions:\n    ready: true\nports:\n"
                + "- name: http\n  port: 80\n  protocol: TCP\n---\napiVersion: coordination.k8s.io/v1\nkind: Lease\n"
                + "metadata:\n  name: leader\n"
                + "spec:\n  holderIdentity: HOLDER\n  leaseDurationSeconds: 15\n";
        Files.writeString(file, manifest.replace("HOLDER", "node-1"), StandardCharsets.UTF_8);
        String first = kubectl.ok("apply", "-f", file.toString()).stdout();
        assertTrue(first.contains("endpointslice.discovery.k8s.io/web-abc created"), first);
        assertTrue(first.contains("lease.coordination.k8s.io/leader created"), first);
        Files.writeString(file, manifest.replace("HOLDER", "node-2"), StandardCharsets.UTF_8);
        String second = kubectl.ok("apply", "-f", file.toString()).stdout();
        assertTrue(second.contains("endpointslice.discovery.k8s.io/web-abc unchanged"), second);
        assertTrue(second.contains("lease.coordination.k8s.io/leader configured"), second);

        List<String> slices = kubectl.ok("get", "endpointslices").stdout().lines().toList();
        assertTrue(slices.get(0).matches("NAME\\s+ADDRESSTYPE\\s+PORTS\\s+ENDPOINTS\\s+AGE"), slices::toString);
        // Beside the kubernetes service's own slice, which the bootstrap controller keeps in default.
        assertTrue(slices.stream().anyMatch(l -> l.matches("web-abc\\s+IPv4\\s+80\\s+10.1.0.1,10.1.0.2\\s+\\d+s")),
                slices::toString);
        JsonNode slice = JSON.readTree(kubectl.ok("get", "endpointslice", "web-abc", "-o", "json").stdout());
        assertEquals("TCP", slice.path("ports").path(0).path("protocol").asText(), slice::toString);
        List<String> leases = kubectl.ok("get", "leases").stdout().lines().toList();
        assertTrue(leases.get(0).matches("NAME\\s+HOLDER\\s+AGE"), leases::toString);
        assertTrue(leases.get(1).matches("leader\\s+node-2\\s+\\d+s"), leases::toString);

        Result address = kubectl.run("patch", "endpointslice", "web-abc", "--type=merge", "-p", "{\"addressType\":\"IPv6\"}");
        assertNotEquals(0, address.exitCode(), address::toString);
        assertTrue(address.stderr().contains("addressType: Invalid value: \"IPv6\": field is immutable"), address::toString);
        Result loopback = kubectl.run("patch", "endpointslice", "web-abc", "--type=merge", "-p",
                "{\"endpoints\":[{\"addresses\":[\"127.0.0.1\"]}]}");
        assertTrue(loopback.stderr().contains("endpoints[0].addresses[0]: Invalid value: \"127.0.0.1\": may not be in the "
                + "loopback range (127.0.0.0/8, ::1/128)"), loopback::toString);
        Result duration = kubectl.run("patch", "lease", "leader", "--type=merge", "-p", "{\"spec\":{\"leaseDurationSeconds\":0}}");
        assertTrue(duration.stderr().contains("The Lease \"leader\" is invalid: spec.leaseDurationSeconds: Invalid value: 0: "
                + "must be greater than 0"), duration::toString);
    }

    @Test
    @Order(6)
    void deleteAndApiResources() throws Exception {
        assertEquals("ingress.networking.k8s.io \"web\" deleted", kubectl.ok("delete", "ing", "web").stdout().trim());
        assertEquals("poddisruptionbudget.policy \"rails\" deleted", kubectl.ok("delete", "pdb", "rails").stdout().trim());
        Result gone = kubectl.run("get", "ingress", "web");
        assertTrue(gone.stderr().contains("ingresses.networking.k8s.io \"web\" not found"), gone::toString);

        String networking = kubectl.ok("api-resources", "--api-group=networking.k8s.io").stdout();
        assertTrue(networking.lines().anyMatch(l -> l.matches("ingressclasses\\s+networking.k8s.io/v1\\s+false\\s+IngressClass")),
                networking);
        assertTrue(networking.lines().anyMatch(l -> l.matches("ingresses\\s+ing\\s+networking.k8s.io/v1\\s+true\\s+Ingress")),
                networking);
        assertTrue(networking.lines().anyMatch(l -> l.matches("networkpolicies\\s+netpol\\s+networking.k8s.io/v1\\s+true\\s+"
                + "NetworkPolicy")), networking);
        assertTrue(kubectl.ok("api-resources", "--api-group=policy").stdout().lines()
                .anyMatch(l -> l.matches("poddisruptionbudgets\\s+pdb\\s+policy/v1\\s+true\\s+PodDisruptionBudget")));
        assertTrue(kubectl.ok("api-resources", "--api-group=discovery.k8s.io").stdout().lines()
                .anyMatch(l -> l.matches("endpointslices\\s+discovery.k8s.io/v1\\s+true\\s+EndpointSlice")));
        assertTrue(kubectl.ok("api-resources", "--api-group=coordination.k8s.io").stdout().lines()
                .anyMatch(l -> l.matches("leases\\s+coordination.k8s.io/v1\\s+true\\s+Lease")));
    }
}
