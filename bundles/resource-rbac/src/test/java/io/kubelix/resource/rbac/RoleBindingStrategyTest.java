package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.rbac.Fixtures.create;
import static io.kubelix.resource.rbac.Fixtures.json;
import static io.kubelix.resource.rbac.Fixtures.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class RoleBindingStrategyTest {

    /** What {@code kubectl create rolebinding bob-view --clusterrole=view --user=bob --serviceaccount=ns:sa} sends. */
    private static ObjectNode bobView() {
        return json("{'apiVersion':'rbac.authorization.k8s.io/v1','kind':'RoleBinding','metadata':{'name':'bob-view'},"
                + "'roleRef':{'apiGroup':'rbac.authorization.k8s.io','kind':'ClusterRole','name':'view'},"
                + "'subjects':[{'apiGroup':'rbac.authorization.k8s.io','kind':'User','name':'bob'},"
                + "{'kind':'ServiceAccount','name':'sa','namespace':'ns'}]}");
    }

    @Test
    void kubectlsBindingIsValid() {
        assertEquals(List.of(), create(RoleBindingStrategy.roleBinding(), bobView()));
    }

    @Test
    void defaultsTheApiGroupsOfRoleRefUsersAndGroups() {
        ObjectNode b = json("{'metadata':{'name':'b'},'roleRef':{'kind':'Role','name':'r'},"
                + "'subjects':[{'kind':'Group','name':'devs'},{'kind':'ServiceAccount','name':'default','namespace':'x'}]}");
        assertEquals(List.of(), create(RoleBindingStrategy.roleBinding(), b));
        assertEquals("rbac.authorization.k8s.io", b.path("roleRef").path("apiGroup").asText());
        assertEquals("rbac.authorization.k8s.io", b.path("subjects").path(0).path("apiGroup").asText());
        assertFalse(b.path("subjects").path(1).has("apiGroup"));
    }

    @Test
    void roleRefIsImmutable() {
        ObjectNode old = bobView();
        create(RoleBindingStrategy.roleBinding(), old);
        ObjectNode changed = old.deepCopy();
        ((ObjectNode) changed.get("roleRef")).put("name", "edit");
        assertEquals(List.of("roleRef: Invalid value: rbac.RoleRef{APIGroup:\"rbac.authorization.k8s.io\", "
                + "Kind:\"ClusterRole\", Name:\"edit\"}: cannot change roleRef"),
                update(RoleBindingStrategy.roleBinding(), changed, old));
    }

    @Test
    void roleRefKindsAndSubjectRules() {
        ObjectNode b = json("{'metadata':{'name':'b'},'roleRef':{'apiGroup':'rbac.authorization.k8s.io','kind':'Role',"
                + "'name':'r'},'subjects':[{'kind':'ServiceAccount','name':'sa'},{'kind':'Robot','name':'r2'},"
                + "{'kind':'User','apiGroup':'v1'},{'kind':'ServiceAccount','apiGroup':'x','name':'a','namespace':'n'}]}");
        assertEquals(List.of("roleRef.kind: Unsupported value: \"Role\": supported values: \"ClusterRole\"",
                "subjects[0].namespace: Required value",
                "subjects[1].kind: Unsupported value: \"Robot\": supported values: \"ServiceAccount\", \"User\", \"Group\"",
                "subjects[2].name: Required value",
                "subjects[2].apiGroup: Unsupported value: \"v1\": supported values: \"rbac.authorization.k8s.io\"",
                "subjects[3].apiGroup: Unsupported value: \"x\": supported values: \"\""),
                create(RoleBindingStrategy.clusterRoleBinding(), b));
    }

    @Test
    void roleRefNeedsANameAndKubesGroup() {
        ObjectNode b = json("{'metadata':{'name':'b'},'roleRef':{'apiGroup':'apps','kind':'Role'}}");
        assertEquals(List.of("roleRef.apiGroup: Unsupported value: \"apps\": supported values: \"rbac.authorization.k8s.io\"",
                "roleRef.name: Required value"), create(RoleBindingStrategy.roleBinding(), b));
    }
}
