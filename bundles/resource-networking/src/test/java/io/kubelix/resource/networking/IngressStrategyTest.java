package io.kubelix.resource.networking;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.TableColumn;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.networking.Fixtures.CTX;
import static io.kubelix.resource.networking.Fixtures.create;
import static io.kubelix.resource.networking.Fixtures.ingress;
import static io.kubelix.resource.networking.Fixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IngressStrategyTest {
    private final NetworkingStrategies.Ingress strategy = new NetworkingStrategies.Ingress();

    @Test
    void kubectlsIngressIsValidAndStartsWithAnEmptyLoadBalancer() {
        ObjectNode i = ingress();
        i.set("status", json("{'loadBalancer':{'ingress':[{'ip':'1.2.3.4'}]}}"));
        assertEquals(List.of(), create(strategy, i));
        assertEquals(json("{'loadBalancer':{}}"), i.path("status"));
    }

    @Test
    void rulesOrADefaultBackendAreRequired() {
        ObjectNode i = json("{'metadata':{'name':'x'},'spec':{}}");
        assertEquals(List.of("spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be "
                + "specified"), create(strategy, i));
        ObjectNode d = json("{'metadata':{'name':'x'},'spec':{'defaultBackend':{'service':{'name':'web','port':{'name':'http'}}}}}");
        assertEquals(List.of(), create(strategy, d));
    }

    @Test
    void pathsNeedAPathTypeAnAbsolutePathAndABackend() {
        ObjectNode i = json("{'metadata':{'name':'x'},'spec':{'rules':[{'host':'a.com','http':{'paths':["
                + "{'path':'/a','backend':{'service':{'name':'s','port':{'number':80}}}},"
                + "{'path':'rel','pathType':'Prefix','backend':{'service':{'name':'s','port':{'number':80}}}},"
                + "{'path':'/a//b','pathType':'Exact','backend':{'service':{'name':'s'}}},"
                + "{'path':'/','pathType':'Regex','backend':{'service':{'name':'Bad_Svc','port':{'number':70000}}}}]}}]}}");
        assertEquals(List.of("spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified",
                "spec.rules[0].http.paths[1].path: Invalid value: \"rel\": must be an absolute path",
                "spec.rules[0].http.paths[2].path: Invalid value: \"/a//b\": must not contain '//'",
                "spec.rules[0].http.paths[2].backend: Required value: port name or number is required",
                "spec.rules[0].http.paths[3].pathType: Unsupported value: \"Regex\": supported values: \"Exact\", "
                        + "\"ImplementationSpecific\", \"Prefix\"",
                "spec.rules[0].http.paths[3].backend.service.name: Invalid value: \"Bad_Svc\": a DNS-1035 label must consist "
                        + "of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an "
                        + "alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is "
                        + "'[a-z]([-a-z0-9]*[a-z0-9])?')",
                "spec.rules[0].http.paths[3].backend.service.port.number: Invalid value: 70000: must be between 1 and 65535, "
                        + "inclusive"), create(strategy, i));
    }

    @Test
    void hostsAreDnsNamesOrWildcards() {
        ObjectNode i = ingress();
        ((ObjectNode) i.path("spec").path("rules").get(0)).put("host", "10.0.0.1");
        List<String> errs = create(strategy, i);
        assertEquals("spec.rules[0].host: Invalid value: \"10.0.0.1\": must be a DNS name, not an IP address", errs.get(0));

        ObjectNode w = ingress();
        ((ObjectNode) w.path("spec").path("rules").get(0)).put("host", "*.foo.com");
        assertEquals(List.of(), create(strategy, w));
        ((ObjectNode) w.path("spec").path("rules").get(0)).put("host", "foo.*.com");
        assertTrue(create(strategy, w).get(0).startsWith("spec.rules[0].host: Invalid value: \"foo.*.com\": a wildcard "
                + "DNS-1123 subdomain must start with '*.'"));
    }

    @Test
    void errorsNameTheirRuleAndTlsHost() {
        ObjectNode i = json("{'metadata':{'name':'x'},'spec':{'tls':[{'hosts':['a.com','Bad_Host']}],'rules':["
                + "{'host':'a.com','http':{'paths':[{'path':'/','pathType':'Prefix','backend':{'service':{'name':'s','port':{'number':80}}}}]}},"
                + "{'host':'*.b.com','http':{'paths':[]}}]}}");
        List<String> errs = create(strategy, i);
        assertEquals("spec.rules[1].http.paths: Required value", errs.get(0));
        assertTrue(errs.get(1).startsWith("spec.tls[0].hosts[1]: Invalid value: \"Bad_Host\": a lowercase RFC 1123 subdomain"),
                errs::toString);
        assertEquals(2, errs.size(), errs::toString);
    }

    @Test
    void theClassFieldAndAnnotationAreExclusive() {
        ObjectNode i = ingress();
        ((ObjectNode) i.path("spec")).put("ingressClassName", "nginx");
        ((ObjectNode) i.path("metadata")).set("annotations", json("{'kubernetes.io/ingress.class':'nginx'}"));
        assertEquals(List.of("annotations.kubernetes.io/ingress.class: Invalid value: \"nginx\": can not be set when the "
                + "class field is also set"), create(strategy, i));
    }

    @Test
    void theStatusSubresourceChangesOnlyTheStatusAndChecksAddresses() {
        ObjectNode old = ingress();
        create(strategy, old);
        ObjectNode status = old.deepCopy();
        status.set("status", json("{'loadBalancer':{'ingress':[{'ip':'not-an-ip'},{'hostname':'lb.example.com'}]}}"));
        ((ObjectNode) status.path("spec")).remove("rules");
        NetworkingStrategies.IngressStatus s = new NetworkingStrategies.IngressStatus();
        s.prepareForUpdate(CTX, status, old);
        assertEquals(List.of("status.loadBalancer.ingress[0].ip: Invalid value: \"not-an-ip\": must be a valid IP address"),
                s.validateUpdate(CTX, status, old).stream().map(FieldError::message).toList());
        assertEquals(old.path("spec"), status.path("spec"));

        ObjectNode put = old.deepCopy();
        put.set("status", json("{'loadBalancer':{'ingress':[{'ip':'9.9.9.9'}]}}"));
        strategy.prepareForUpdate(CTX, put, old);
        assertEquals(old.path("status"), put.path("status"));
    }

    @Test
    void printsClassHostsAddressAndPorts() {
        List<TableColumn> columns = NetworkingPrinters.ingressColumns();
        assertEquals(List.of("Name", "Class", "Hosts", "Address", "Ports", "Age"), columns.stream().map(TableColumn::name).toList());
        ObjectNode i = json("{'metadata':{'name':'web'},'spec':{'ingressClassName':'nginx','tls':[{'hosts':['a.com']}],"
                + "'rules':[{'host':'a.com'},{'host':'b.com'},{},{'host':'d.com'},{'host':'e.com'}]},"
                + "'status':{'loadBalancer':{'ingress':[{'ip':'10.0.0.2'},{'hostname':'lb.example.com'},{'ip':'10.0.0.1'}]}}}");
        assertEquals("nginx", columns.get(1).cell().apply(i));
        assertEquals("a.com,b.com,d.com + 2 more...", NetworkingPrinters.hosts(i));
        assertEquals("10.0.0.1,10.0...", NetworkingPrinters.address(i));
        assertEquals("80, 443", columns.get(4).cell().apply(i));
        ObjectNode plain = ingress();
        assertEquals(List.of("web", "<none>", "foo.com", "", "80"),
                columns.subList(0, 5).stream().map(c -> c.cell().apply(plain)).toList());
    }
}
