package io.kubelix.resource.core.config;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.core.testing.Json.obj;
import static io.kubelix.resource.core.testing.Tables.cell;
import static io.kubelix.resource.core.testing.Tables.headers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigPrintersTest {

    @Test
    void configMapColumnsCountDataAndBinaryData() {
        List<TableColumn> cols = ConfigPrinters.configMapColumns();
        assertEquals(List.of("Name", "Data", "Age"), headers(cols));
        assertTrue(cols.get(2).isAge());
        assertEquals(3L, cell(cols, "Data", obj("{'data':{'a':'','b':''},'binaryData':{'c':''}}")));
        assertEquals(0L, cell(cols, "Data", obj("{}")));
    }

    @Test
    void secretColumns() {
        List<TableColumn> cols = ConfigPrinters.secretColumns();
        assertEquals(List.of("Name", "Type", "Data", "Age"), headers(cols));
        assertTrue(cols.get(3).isAge());
        ObjectNode s = obj("{'metadata':{'name':'s'},'type':'kubernetes.io/tls','data':{'tls.crt':'','tls.key':''}}");
        assertEquals("kubernetes.io/tls", cell(cols, "Type", s));
        assertEquals(2L, cell(cols, "Data", s));
    }
}
