package io.kubelix.resource.core.node;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.core.testing.Json.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Nodes: created with their status, pod CIDRs and taints validated as kube does. */
class NodeStrategyTest {
    private static final RequestContext CTX = RequestContext.system("");
    private final NodeStrategy strategy = new NodeStrategy();

    private List<String> errors(String json) {
        ObjectNode node = obj(json);
        strategy.prepareForCreate(CTX, node);
        return strategy.validate(CTX, node).stream().map(FieldError::message).toList();
    }

    @Test
    void aNodeKeepsTheStatusItRegistersWithAndPodCIDRMirrorsPodCIDRs() {
        ObjectNode node = obj("{'metadata':{'name':'n1'},'spec':{'podCIDR':'10.244.1.0/24'},"
                + "'status':{'conditions':[{'type':'Ready','status':'True'}]}}");
        strategy.prepareForCreate(CTX, node);
        assertEquals("True", node.path("status").path("conditions").get(0).path("status").asText());
        assertEquals("10.244.1.0/24", node.path("spec").path("podCIDRs").get(0).asText());
        assertTrue(strategy.validate(CTX, node).isEmpty());

        ObjectNode update = obj("{'metadata':{'name':'n1'},'spec':{'podCIDRs':['10.244.1.0/24'],'unschedulable':true},"
                + "'status':{'conditions':[]}}");
        strategy.prepareForUpdate(CTX, update, node);
        assertEquals("True", update.path("status").path("conditions").get(0).path("status").asText(), "the status is kept");
        assertEquals("10.244.1.0/24", update.path("spec").path("podCIDR").asText());
        assertTrue(strategy.validateUpdate(CTX, update, node).isEmpty());
    }

    @Test
    void podCIDRs() {
        assertEquals(List.of("spec.podCIDRs[0]: Invalid value: \"10.0.0.0\": must be a valid CIDR value, (e.g. 10.9.8.0/24 "
                + "or 2001:db8::/64)"), errors("{'spec':{'podCIDR':'10.0.0.0'}}"));
        assertEquals(List.of(), errors("{'spec':{'podCIDRs':['10.0.0.0/24','fd00::/64']}}"), "one per family");
        assertEquals(List.of("spec.podCIDRs: Invalid value: []string{\"10.0.0.0/24\", \"10.1.0.0/24\"}: may specify no "
                + "more than one CIDR for each IP family"), errors("{'spec':{'podCIDRs':['10.0.0.0/24','10.1.0.0/24']}}"));
        ObjectNode old = obj("{'spec':{'podCIDRs':['10.0.0.0/24']}}");
        ObjectNode changed = obj("{'spec':{'podCIDRs':['10.9.0.0/24']}}");
        assertEquals(List.of("spec.podCIDRs: Forbidden: node updates may not change podCIDR except from \"\" to valid"),
                strategy.validateUpdate(CTX, changed, old).stream().map(FieldError::message).toList());
        assertEquals(List.of(), strategy.validateUpdate(CTX, old.deepCopy(), obj("{'spec':{}}")), "from unset to valid");
    }

    @Test
    void aStatusUpdateWithADuplicateAddressIsRefused() {
        ObjectNode old = obj("{'metadata':{'name':'n1'},'spec':{}}");
        ObjectNode update = obj("{'metadata':{'name':'n1'},'status':{'addresses':[{'type':'InternalIP','address':'10.0.0.1'},"
                + "{'type':'InternalIP','address':'10.0.0.1'}]}}");
        NodeStrategy.Status status = new NodeStrategy.Status();
        status.prepareForUpdate(CTX, update, old);
        assertEquals(List.of("status.addresses[1]: Duplicate value: core.NodeAddress{Type:\"InternalIP\", "
                + "Address:\"10.0.0.1\"}"), status.validateUpdate(CTX, update, old).stream().map(FieldError::message).toList());
    }

    @Test
    void taints() {
        assertEquals(List.of(), errors("{'spec':{'taints':[{'key':'dedicated','value':'gpu','effect':'NoSchedule'}]}}"));
        assertEquals(List.of("spec.taints[0].effect: Unsupported value: \"Sometimes\": supported values: \"NoSchedule\", "
                + "\"PreferNoSchedule\", \"NoExecute\""), errors("{'spec':{'taints':[{'key':'a','effect':'Sometimes'}]}}"));
        assertEquals(List.of("spec.taints[0].effect: Required value"), errors("{'spec':{'taints':[{'key':'a'}]}}"));
        assertTrue(errors("{'spec':{'taints':[{'key':'bad key','effect':'NoSchedule'}]}}").get(0)
                .startsWith("spec.taints[0].key: Invalid value: \"bad key\""));
        List<String> dup = errors("{'spec':{'taints':[{'key':'a','effect':'NoSchedule'},{'key':'a','value':'x','effect':"
                + "'NoSchedule'},{'key':'a','effect':'NoExecute'}]}}");
        assertEquals(1, dup.size());
        assertTrue(dup.get(0).startsWith("spec.taints[1]: Duplicate value: ") && dup.get(0).endsWith(
                "taints must be unique by key and effect pair"), dup.get(0));
    }
}
