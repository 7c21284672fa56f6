package io.kubelix.resource.core.node;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.core.testing.Json.obj;
import static io.kubelix.resource.core.testing.Tables.cell;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** kube's printNode cells. */
class NodePrintersTest {

    @Test
    void nodes() {
        List<TableColumn> cols = NodePrinters.nodeColumns();
        ObjectNode node = obj("{'metadata':{'name':'n1','labels':{'node-role.kubernetes.io/control-plane':'',"
                + "'node-role.kubernetes.io/worker':'','kubernetes.io/role':'edge'}},'spec':{'unschedulable':true},"
                + "'status':{'conditions':[{'type':'MemoryPressure','status':'False'},{'type':'Ready','status':'True'}],"
                + "'addresses':[{'type':'InternalIP','address':'192.168.1.10'},{'type':'Hostname','address':'n1'}],"
                + "'nodeInfo':{'kubeletVersion':'v1.32.0','osImage':'Debian GNU/Linux 12 (bookworm)','kernelVersion':'6.1.0',"
                + "'containerRuntimeVersion':'containerd://1.7.0'}}}");
        assertEquals("Ready,SchedulingDisabled", cell(cols, "Status", node));
        assertEquals("control-plane,edge,worker", cell(cols, "Roles", node));
        assertEquals("v1.32.0", cell(cols, "Version", node));
        assertEquals("192.168.1.10", cell(cols, "Internal-IP", node));
        assertEquals("<none>", cell(cols, "External-IP", node));
        assertEquals("containerd://1.7.0", cell(cols, "Container-Runtime", node));
        ObjectNode bare = obj("{'metadata':{'name':'n2'}}");
        assertEquals("Unknown", cell(cols, "Status", bare));
        assertEquals("<none>", cell(cols, "Roles", bare));
        assertEquals("<unknown>", cell(cols, "OS-Image", bare));
        assertEquals("NotReady", cell(cols, "Status", obj("{'status':{'conditions':[{'type':'Ready','status':'Unknown'}]}}")));
    }
}
