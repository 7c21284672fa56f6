package io.kubelix.resource.networking;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.StoreSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.networking.Fixtures.CTX;
import static io.kubelix.resource.networking.Fixtures.create;
import static io.kubelix.resource.networking.Fixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NetworkPolicyAndIngressClassTest {
    private final NetworkingStrategies.NetworkPolicy policy = new NetworkingStrategies.NetworkPolicy();
    private final NetworkingStrategies.IngressClass ingressClass = new NetworkingStrategies.IngressClass();

    @Test
    void policyTypesDefaultAsKubesAndPortsToTcp() {
        ObjectNode ingressOnly = json("{'metadata':{'name':'p'},'spec':{'podSelector':{},'ingress':[{'ports':[{'port':80}]}]}}");
        assertEquals(List.of(), create(policy, ingressOnly));
        assertEquals("[\"Ingress\"]", ingressOnly.path("spec").path("policyTypes").toString());
        assertEquals("TCP", ingressOnly.path("spec").path("ingress").get(0).path("ports").get(0).path("protocol").asText());

        ObjectNode both = json("{'metadata':{'name':'p'},'spec':{'podSelector':{'matchLabels':{'app':'db'}},"
                + "'egress':[{'to':[{'ipBlock':{'cidr':'10.0.0.0/8','except':['10.1.0.0/16']}}]}]}}");
        assertEquals(List.of(), create(policy, both));
        assertEquals("[\"Ingress\",\"Egress\"]", both.path("spec").path("policyTypes").toString());

        ObjectNode explicit = json("{'metadata':{'name':'p'},'spec':{'podSelector':{},'policyTypes':['Egress']}}");
        create(policy, explicit);
        assertEquals("[\"Egress\"]", explicit.path("spec").path("policyTypes").toString());

        ObjectNode noSelector = json("{'metadata':{'name':'deny-all'},'spec':{}}");
        assertEquals(List.of(), create(policy, noSelector));
        assertEquals(json("{}"), noSelector.path("spec").path("podSelector"));
        assertEquals("<none>", NetworkingPrinters.podSelector(noSelector));
    }

    @Test
    void peersPortsAndIpBlocksAreValidated() {
        ObjectNode p = json("{'metadata':{'name':'p'},'spec':{'podSelector':{},'policyTypes':['Ingress','Sideways'],"
                + "'ingress':[{'from':[{},{'ipBlock':{'cidr':'10.0.0.0/8'},'podSelector':{}},"
                + "{'ipBlock':{'cidr':'10.0.0.0/8','except':['192.168.0.0/16','10.0.0.0/8']}},{'ipBlock':{'cidr':'nope'}}],"
                + "'ports':[{'port':0},{'port':'http','endPort':90},{'port':100,'endPort':90},{'protocol':'ICMP'}]}]}}");
        assertEquals(List.of(
                "spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive",
                "spec.ingress[0].ports[1].endPort: Invalid value: 90: may not be specified when `port` is non-numeric",
                "spec.ingress[0].ports[2].endPort: Invalid value: 100: must be greater than or equal to `port`",
                "spec.ingress[0].ports[3].protocol: Unsupported value: \"ICMP\": supported values: \"TCP\", \"UDP\", \"SCTP\"",
                "spec.ingress[0].from[0]: Required value: must specify a peer",
                "spec.ingress[0].from[1]: Forbidden: may not specify both ipBlock and another peer",
                "spec.ingress[0].from[2].ipBlock.except[0]: Invalid value: \"192.168.0.0/16\": must be a strict subset of `cidr`",
                "spec.ingress[0].from[2].ipBlock.except[1]: Invalid value: \"10.0.0.0/8\": must be a strict subset of `cidr`",
                "spec.ingress[0].from[3].ipBlock.cidr: Invalid value: \"nope\": must be a valid CIDR value, (e.g. "
                        + "10.9.8.0/24 or 2001:db8::/64)",
                "spec.policyTypes[1]: Unsupported value: \"Sideways\": supported values: \"Ingress\", \"Egress\""),
                create(policy, p));
    }

    @Test
    void atMostTwoPolicyTypes() {
        ObjectNode p = json("{'metadata':{'name':'p'},'spec':{'podSelector':{},'policyTypes':['Ingress','Egress','Ingress']}}");
        assertEquals(List.of("spec.policyTypes: Invalid value: []networking.PolicyType{\"Ingress\", \"Egress\", \"Ingress\"}: "
                + "may not specify more than two policyTypes"), create(policy, p));
    }

    @Test
    void podSelectorColumnShowsNoneForEveryPod() {
        assertEquals("<none>", NetworkingPrinters.podSelector(json("{'spec':{'podSelector':{}}}")));
        assertEquals("app=db", NetworkingPrinters.podSelector(json("{'spec':{'podSelector':{'matchLabels':{'app':'db'}}}}")));
    }

    @Test
    void ingressClassControllerIsADomainPrefixedPathThatNeverChanges() {
        ObjectNode c = json("{'metadata':{'name':'nginx'},'spec':{'controller':'k8s.io/ingress-nginx',"
                + "'parameters':{'apiGroup':'k8s.example.com','kind':'IngressParameters','name':'external-lb'}}}");
        assertEquals(List.of(), create(ingressClass, c));
        assertEquals("Cluster", c.path("spec").path("parameters").path("scope").asText());
        assertEquals("IngressParameters.k8s.example.com/external-lb", NetworkingPrinters.parameters(c));

        assertEquals(List.of("spec.controller: Invalid value: \"nginx\": must be a domain-prefixed path (such as \"acme.io/foo\")"),
                create(ingressClass, json("{'metadata':{'name':'x'},'spec':{'controller':'nginx'}}")));
        assertEquals(List.of("spec.controller: Required value"), create(ingressClass, json("{'metadata':{'name':'x'},'spec':{}}")));
        assertEquals(List.of("spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"),
                create(ingressClass, json("{'metadata':{'name':'x'},'spec':{'controller':'a.io/b','parameters':{'kind':'K',"
                        + "'name':'n','scope':'Namespace'}}}")));

        ObjectNode changed = c.deepCopy();
        ((ObjectNode) changed.path("spec")).put("controller", "example.com/other");
        ingressClass.prepareForUpdate(CTX, changed, c);
        assertEquals(List.of("spec.controller: Invalid value: \"example.com/other\": field is immutable"),
                ingressClass.validateUpdate(CTX, changed, c).stream().map(FieldError::message).toList());
    }

    @Test
    void scopesAndShortNamesAsKubes() {
        StoreSpec ing = NetworkingRESTStorageProvider.ingressSpec();
        StoreSpec cls = NetworkingRESTStorageProvider.ingressClassSpec();
        StoreSpec pol = NetworkingRESTStorageProvider.networkPolicySpec();
        assertEquals(List.of("ing"), ing.shortNames());
        assertEquals(List.of("netpol"), pol.shortNames());
        assertEquals(List.of(), cls.shortNames());
        assertTrue(ing.namespaced() && pol.namespaced());
        assertFalse(cls.namespaced());
        assertEquals(List.of(), ing.categories());
    }
}
