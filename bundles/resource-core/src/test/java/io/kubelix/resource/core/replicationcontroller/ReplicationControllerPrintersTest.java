package io.kubelix.resource.core.replicationcontroller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.core.testing.Json.obj;
import static io.kubelix.resource.core.testing.Tables.cell;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** kube's printReplicationController cells. */
class ReplicationControllerPrintersTest {

    @Test
    void replicationControllers() {
        List<TableColumn> rc = ReplicationControllerPrinters.replicationControllerColumns();
        ObjectNode o = obj("{'spec':{'replicas':3,'selector':{'tier':'web','app':'a'},'template':{'spec':{'containers':"
                + "[{'name':'web','image':'nginx'},{'name':'log','image':'busybox'}]}}},'status':{'replicas':2,'readyReplicas':1}}");
        assertEquals(3L, cell(rc, "Desired", o));
        assertEquals(2L, cell(rc, "Current", o));
        assertEquals(1L, cell(rc, "Ready", o));
        assertEquals("web,log", cell(rc, "Containers", o));
        assertEquals("nginx,busybox", cell(rc, "Images", o));
        assertEquals("app=a,tier=web", cell(rc, "Selector", o));
    }
}
