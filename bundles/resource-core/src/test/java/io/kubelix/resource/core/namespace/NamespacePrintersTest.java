package io.kubelix.resource.core.namespace;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.core.testing.Json.obj;
import static io.kubelix.resource.core.testing.Tables.cell;
import static io.kubelix.resource.core.testing.Tables.headers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NamespacePrintersTest {

    @Test
    void namespaceColumns() {
        List<TableColumn> cols = NamespacePrinters.namespaceColumns();
        assertEquals(List.of("Name", "Status", "Age"), headers(cols));
        assertTrue(cols.get(2).isAge());
        ObjectNode ns = obj("{'metadata':{'name':'a'},'status':{'phase':'Active'}}");
        assertEquals("a", cell(cols, "Name", ns));
        assertEquals("Active", cell(cols, "Status", ns));
        assertEquals("", cell(cols, "Status", obj("{'metadata':{'name':'a'}}")));
    }
}
