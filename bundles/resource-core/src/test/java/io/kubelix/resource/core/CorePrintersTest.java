package io.kubelix.resource.core;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.core.Json.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CorePrintersTest {

    private static List<String> headers(List<TableColumn> columns) {
        return columns.stream().map(TableColumn::name).toList();
    }

    private static Object cell(List<TableColumn> columns, String name, ObjectNode o) {
        return columns.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow().cell().apply(o);
    }

    @Test
    void namespaceColumns() {
        List<TableColumn> cols = CorePrinters.namespaceColumns();
        assertEquals(List.of("Name", "Status", "Age"), headers(cols));
        assertTrue(cols.get(2).isAge());
        ObjectNode ns = obj("{'metadata':{'name':'a'},'status':{'phase':'Active'}}");
        assertEquals("a", cell(cols, "Name", ns));
        assertEquals("Active", cell(cols, "Status", ns));
        assertEquals("", cell(cols, "Status", obj("{'metadata':{'name':'a'}}")));
    }

    @Test
    void configMapColumnsCountDataAndBinaryData() {
        List<TableColumn> cols = CorePrinters.configMapColumns();
        assertEquals(List.of("Name", "Data", "Age"), headers(cols));
        assertTrue(cols.get(2).isAge());
        assertEquals(3L, cell(cols, "Data", obj("{'data':{'a':'','b':''},'binaryData':{'c':''}}")));
        assertEquals(0L, cell(cols, "Data", obj("{}")));
    }

    @Test
    void secretColumns() {
        List<TableColumn> cols = CorePrinters.secretColumns();
        assertEquals(List.of("Name", "Type", "Data", "Age"), headers(cols));
        assertTrue(cols.get(3).isAge());
        ObjectNode s = obj("{'metadata':{'name':'s'},'type':'kubernetes.io/tls','data':{'tls.crt':'','tls.key':''}}");
        assertEquals("kubernetes.io/tls", cell(cols, "Type", s));
        assertEquals(2L, cell(cols, "Data", s));
    }
}
