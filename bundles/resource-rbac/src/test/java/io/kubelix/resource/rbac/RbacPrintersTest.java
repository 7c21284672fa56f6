package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.kubelix.resource.rbac.Fixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

class RbacPrintersTest {

    private static List<String> headers(List<TableColumn> columns) {
        return columns.stream().map(c -> c.name() + (c.priority() > 0 ? "*" : "")).toList();
    }

    private static List<Object> cells(List<TableColumn> columns, ObjectNode o) {
        List<Object> out = new ArrayList<>();
        columns.stream().filter(c -> !c.isAge()).forEach(c -> out.add(c.cell().apply(o)));
        return out;
    }

    @Test
    void rolesShowTheirCreationTime() {
        ObjectNode role = json("{'metadata':{'name':'pod-reader','creationTimestamp':'2026-01-02T03:04:05Z'}}");
        List<TableColumn> columns = RbacPrinters.roleColumns();
        assertEquals(List.of("Name", "Created At"), headers(columns));
        assertEquals("date", columns.get(1).type());
        assertEquals(List.of("pod-reader", "2026-01-02T03:04:05Z"), cells(columns, role));
    }

    @Test
    void bindingsShowRoleAndWideSubjects() {
        ObjectNode b = json("{'metadata':{'name':'b'},'roleRef':{'kind':'ClusterRole','name':'view'},'subjects':["
                + "{'kind':'User','name':'bob'},{'kind':'User','name':'eve'},{'kind':'Group','name':'devs'},"
                + "{'kind':'ServiceAccount','name':'sa','namespace':'ns'}]}");
        List<TableColumn> columns = RbacPrinters.bindingColumns("roleBinding");
        assertEquals(List.of("Name", "Role", "Age", "Users*", "Groups*", "ServiceAccounts*"), headers(columns));
        assertEquals(List.of("b", "ClusterRole/view", "bob, eve", "devs", "ns/sa"), cells(columns, b));
    }
}
