package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.rbac.Fixtures.create;
import static io.kubelix.resource.rbac.Fixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

class RoleStrategyTest {

    /** What {@code kubectl create role pod-reader --verb=get,list --resource=pods} sends. */
    private static ObjectNode podReader() {
        return json("{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'Role','metadata':{'name':'pod-reader'},"
                + "'rules':[{'apiGroups':[''],'resources':['pods'],'verbs':['get','list']}]}");
    }

    @Test
    void kubectlsRoleIsValid() {
        assertEquals(List.of(), create(RoleStrategy.role(), podReader()));
    }

    @Test
    void aRuleNeedsVerbsGroupsAndResources() {
        ObjectNode role = json("{'metadata':{'name':'r'},'rules':[{}]}");
        assertEquals(List.of("rules[0].verbs: Required value: verbs must contain at least one value",
                "rules[0].apiGroups: Required value: resource rules must supply at least one api group",
                "rules[0].resources: Required value: resource rules must supply at least one resource"),
                create(RoleStrategy.role(), role));
    }

    @Test
    void nonResourceURLsOnlyInClusterRolesAndNeverWithResources() {
        ObjectNode role = json("{'metadata':{'name':'r'},'rules':[{'nonResourceURLs':['/healthz'],'verbs':['get']}]}");
        assertEquals(List.of("rules[0].nonResourceURLs: Invalid value: []string{\"/healthz\"}: namespaced rules cannot "
                + "apply to non-resource URLs"), create(RoleStrategy.role(), role));
        assertEquals(List.of(), create(RoleStrategy.clusterRole(), role.deepCopy()));

        ObjectNode both = json("{'metadata':{'name':'r'},'rules':[{'nonResourceURLs':['/logs'],'resources':['pods'],"
                + "'verbs':['get']}]}");
        assertEquals(List.of("rules[0].nonResourceURLs: Invalid value: []string{\"/logs\"}: rules cannot apply to both "
                + "regular resources and non-resource URLs"), create(RoleStrategy.clusterRole(), both));
    }

    @Test
    void aggregationRuleNeedsASelector() {
        ObjectNode role = json("{'metadata':{'name':'monitoring'},'aggregationRule':{'clusterRoleSelectors':[]}}");
        assertEquals(List.of("aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector "
                + "required if aggregationRule is non-nil"), create(RoleStrategy.clusterRole(), role));

        ObjectNode ok = json("{'metadata':{'name':'monitoring'},'aggregationRule':{'clusterRoleSelectors':["
                + "{'matchLabels':{'rbac.example.com/aggregate-to-monitoring':'true'}}]}}");
        assertEquals(List.of(), create(RoleStrategy.clusterRole(), ok));
    }
}
