package io.kubelix.resource.core.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.testing.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServiceStrategyTest {
    private static final RequestContext CTX = RequestContext.system("default");
    private final ServiceStrategy strategy = new ServiceStrategy(ServiceCIDR.IPV4);

    private static ObjectNode svc(String name, String spec) {
        return Json.obj("{'metadata':{'name':'" + name + "'},'spec':" + spec + "}");
    }

    private List<String> errors(ObjectNode svc) {
        strategy.prepareForCreate(CTX, svc);
        return strategy.validate(CTX, svc).stream().map(FieldError::message).toList();
    }

    @Test
    void defaultsAsKube() {
        ObjectNode svc = svc("web", "{'ports':[{'port':80},{'name':'b','port':81,'targetPort':'http'}]}");
        strategy.prepareForCreate(CTX, svc);
        ObjectNode spec = (ObjectNode) svc.get("spec");
        assertEquals("ClusterIP", spec.path("type").asText());
        assertEquals("None", spec.path("sessionAffinity").asText());
        assertEquals("TCP", spec.path("ports").path(0).path("protocol").asText());
        assertEquals(80, spec.path("ports").path(0).path("targetPort").asInt(), "targetPort defaults to port");
        assertEquals("http", spec.path("ports").path(1).path("targetPort").asText());
        assertEquals("Cluster", spec.path("internalTrafficPolicy").asText());
        assertTrue(spec.path("externalTrafficPolicy").isMissingNode(), "only NodePort and LoadBalancer get one");
        assertEquals("SingleStack", spec.path("ipFamilyPolicy").asText());
        assertEquals("IPv4", spec.path("ipFamilies").path(0).asText());
        assertTrue(svc.path("status").path("loadBalancer").isObject());

        ObjectNode lb = svc("lb", "{'type':'LoadBalancer','sessionAffinity':'ClientIP','ports':[{'port':80}]}");
        strategy.prepareForCreate(CTX, lb);
        assertEquals("Cluster", lb.path("spec").path("externalTrafficPolicy").asText());
        assertTrue(lb.path("spec").path("allocateLoadBalancerNodePorts").asBoolean());
        ObjectNode external = svc("ext", "{'type':'ExternalName','externalName':'example.com'}");
        strategy.prepareForCreate(CTX, external);
        assertTrue(external.path("spec").path("ipFamilies").isMissingNode());
        assertTrue(external.path("spec").path("internalTrafficPolicy").isMissingNode());
    }

    @Test
    void ipFamiliesAsKubesInitIPFamilyFields() {
        ObjectNode selectorless = svc("ext-db", "{'clusterIP':'None','ports':[{'port':5432}]}");
        assertTrue(errors(selectorless).isEmpty());
        assertEquals("RequireDualStack", selectorless.path("spec").path("ipFamilyPolicy").asText(),
                "a headless service without selector defaults to dual-stack");
        assertEquals("[\"IPv4\",\"IPv6\"]", selectorless.path("spec").path("ipFamilies").toString());
        ObjectNode headless = svc("db", "{'clusterIP':'None','selector':{'app':'db'}}");
        assertTrue(errors(headless).isEmpty());
        assertEquals("SingleStack", headless.path("spec").path("ipFamilyPolicy").asText());
        assertEquals(List.of("spec.ipFamilyPolicy: Invalid value: \"RequireDualStack\": this cluster is not configured for "
                + "dual-stack services"), errors(svc("web", "{'ipFamilyPolicy':'RequireDualStack','ports':[{'port':80}]}")));
        assertEquals(List.of("spec.ipFamilies[0]: Invalid value: \"IPv6\": not configured on this cluster"),
                errors(svc("web", "{'ipFamilies':['IPv6'],'ports':[{'port':80}]}")));

        ObjectNode old = svc("web", "{'ipFamilyPolicy':'PreferDualStack','ports':[{'port':80}]}");
        strategy.prepareForCreate(CTX, old);
        ObjectNode put = svc("web", "{'ports':[{'port':80}]}");
        strategy.prepareForUpdate(CTX, put, old);
        assertEquals("PreferDualStack", put.path("spec").path("ipFamilyPolicy").asText(), "an update adopts the stored policy");
    }

    @Test
    void portsNeedNamesWhenSeveralAndUniqueValidValues() {
        assertEquals(List.of("spec.ports[1].name: Required value"),
                errors(svc("web", "{'ports':[{'name':'a','port':80},{'port':81}]}")));
        assertEquals(List.of("spec.ports[1].name: Duplicate value: \"a\""),
                errors(svc("web", "{'ports':[{'name':'a','port':80},{'name':'a','port':81}]}")));
        assertEquals(List.of("spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
                        "spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive"),
                errors(svc("web", "{'ports':[{'port':70000}]}")));
        assertEquals(List.of("spec.ports[0].protocol: Unsupported value: \"XTP\": supported values: \"SCTP\", \"TCP\", \"UDP\""),
                errors(svc("web", "{'ports':[{'port':80,'protocol':'XTP'}]}")));
        assertEquals(List.of("spec.ports[0].targetPort: Invalid value: \"Http\": must contain only alpha-numeric characters "
                + "(a-z, 0-9), and hyphens (-)"), errors(svc("web", "{'ports':[{'port':80,'targetPort':'Http'}]}")));
        assertEquals(List.of("spec.ports: Required value"), errors(svc("web", "{}")));
        assertTrue(errors(svc("web", "{'clusterIP':'None'}")).isEmpty(), "a headless service needs no ports");
    }

    @Test
    void typeSelectorExternalNameAndNodePortRules() {
        assertEquals(List.of("spec.type: Unsupported value: \"Magic\": supported values: \"ClusterIP\", \"ExternalName\", "
                + "\"LoadBalancer\", \"NodePort\""), errors(svc("web", "{'type':'Magic','ports':[{'port':80}]}")));
        assertEquals(List.of("spec.externalName: Required value"), errors(svc("ext", "{'type':'ExternalName'}")));
        assertEquals(List.of("spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"),
                errors(svc("web", "{'ports':[{'port':80,'nodePort':30080}]}")));
        assertTrue(errors(svc("web", "{'selector':{'app':'-x'},'ports':[{'port':80}]}")).get(0)
                .startsWith("spec.selector: Invalid value: \"-x\""));
        assertEquals(List.of("spec.clusterIP: Invalid value: \"None\": may not be set to 'None' for NodePort services"),
                errors(svc("np", "{'type':'NodePort','clusterIP':'None','ports':[{'port':80}]}")));
        assertEquals(List.of("spec.clusterIP: Invalid value: \"10.0.0.300\": must be empty, 'None', or a valid IP address"),
                errors(svc("web", "{'clusterIP':'10.0.0.300','ports':[{'port':80}]}")));
        assertEquals(List.of("spec.externalTrafficPolicy: Invalid value: \"Local\": may only be set for externally-accessible services"),
                errors(svc("web", "{'externalTrafficPolicy':'Local','ports':[{'port':80}]}")));
        assertTrue(errors(svc("1web", "{'ports':[{'port':80}]}")).get(0).startsWith("metadata.name: Invalid value: \"1web\": "
                + "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character"));
    }

    @Test
    void anUpdateKeepsTheClusterIPAndStatusAndRefusesANewIP() {
        ObjectNode old = svc("web", "{'clusterIP':'10.0.0.20','ports':[{'port':80}]}");
        strategy.prepareForCreate(CTX, old);
        ((ObjectNode) old.get("status")).putObject("loadBalancer").putArray("ingress").addObject().put("ip", "1.2.3.4");
        ObjectNode put = svc("web", "{'ports':[{'port':80}],'type':'ClusterIP'}");
        put.putObject("status");
        strategy.prepareForUpdate(CTX, put, old);
        assertEquals("10.0.0.20", put.path("spec").path("clusterIP").asText());
        assertEquals("10.0.0.20", put.path("spec").path("clusterIPs").path(0).asText());
        assertEquals("1.2.3.4", put.path("status").path("loadBalancer").path("ingress").path(0).path("ip").asText());
        assertTrue(strategy.validateUpdate(CTX, put, old).isEmpty());

        ObjectNode changed = svc("web", "{'clusterIP':'10.0.0.21','clusterIPs':['10.0.0.21'],'ports':[{'port':80}]}");
        strategy.prepareForUpdate(CTX, changed, old);
        assertEquals(List.of("spec.clusterIPs[0]: Invalid value: []string{\"10.0.0.21\"}: may not change once set"),
                strategy.validateUpdate(CTX, changed, old).stream().map(FieldError::message).toList());
    }

    @Test
    void theStatusSubresourceChecksLoadBalancerIngress() {
        ServiceStatusStrategy status = new ServiceStatusStrategy();
        ObjectNode old = svc("lb", "{'type':'LoadBalancer','ports':[{'port':80}]}");
        ObjectNode update = Json.obj("{'metadata':{'name':'lb'},'spec':{'type':'ClusterIP'},"
                + "'status':{'loadBalancer':{'ingress':[{'ip':'nope'},{'hostname':'1.2.3.4'}]}}}");
        status.prepareForUpdate(CTX, update, old);
        assertEquals("LoadBalancer", update.path("spec").path("type").asText(), "the spec is not the status's to change");
        assertEquals(List.of("status.loadBalancer.ingress[0].ip: Invalid value: \"nope\": must be a valid IP address",
                        "status.loadBalancer.ingress[1].hostname: Invalid value: \"1.2.3.4\": must be a DNS name, not an IP address"),
                status.validateUpdate(CTX, update, old).stream().map(FieldError::message).toList());
    }

    @Test
    void rangesParseAsKubeAndMalformedOnesNameTheFlag() {
        ServiceCIDR cidr = ServiceCIDR.parse("10.96.0.0/28");
        assertEquals(14, cidr.size());
        assertEquals("10.96.0.1", cidr.addressAt(0));
        assertEquals(13, cidr.offsetOf("10.96.0.14"));
        assertEquals(-1, cidr.offsetOf("10.96.0.15"), "the broadcast address is not handed out");
        assertEquals(-1, cidr.offsetOf("10.96.0.0"));
        assertEquals("10.0.0.0/24", ServiceCIDR.parse("10.0.0.7/24").cidr());
        ServiceCIDR v6 = ServiceCIDR.parse("fd00:10:96::/112");
        assertEquals("IPv6", v6.family());
        assertEquals("fd00:10:96::1", v6.addressAt(0));
        assertEquals(65535, v6.size());
        assertEquals("invalid --service-cluster-ip-range \"10.0.0.0/8\": the range is too large; for 32-bit addresses "
                + "the mask must be >= 12", assertThrowsIAE(() -> ServiceCIDR.parse("10.0.0.0/8")));
        assertTrue(assertThrowsIAE(() -> ServiceCIDR.parse("banana")).startsWith("invalid --service-cluster-ip-range \"banana\""));
        assertEquals(new NodePortRange(30000, 2768), NodePortRange.parse("30000-32767"));
        assertEquals(new NodePortRange(30000, 2768), NodePortRange.parse("30000+2767"));
        assertTrue(assertThrowsIAE(() -> NodePortRange.parse("32767-30000")).startsWith("invalid --service-node-port-range"));
        assertTrue(assertThrowsIAE(() -> new ServiceNetworkConfig("10.0.0.0/24", "0-10")).contains("--service-node-port-range"));
    }

    private static String assertThrowsIAE(org.junit.jupiter.api.function.Executable e) {
        return org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, e).getMessage();
    }
}
