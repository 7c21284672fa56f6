package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static io.kubelix.resource.core.testing.Json.obj;
import static io.kubelix.resource.core.testing.Tables.cell;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** kube's printPod and printPodTemplate cells. */
class PodPrintersTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final List<TableColumn> PODS = PodPrinters.podColumns(() -> NOW);

    private static List<Object> pod(String json) {
        ObjectNode o = obj(json);
        return List.of(cell(PODS, "Ready", o), cell(PODS, "Status", o), cell(PODS, "Restarts", o));
    }

    @Test
    void aNewPodIsPendingWithNoContainerReady() {
        assertEquals(List.of("0/1", "Pending", "0"),
                pod("{'spec':{'containers':[{'name':'a'}]},'status':{'phase':'Pending'}}"));
    }

    @Test
    void runningReadyContainersAreCounted() {
        assertEquals(List.of("1/2", "Running", "0"), pod("{'spec':{'containers':[{'name':'a'},{'name':'b'}]},"
                + "'status':{'phase':'Running','containerStatuses':[{'name':'a','ready':true,'state':{'running':{}}},"
                + "{'name':'b','ready':false,'state':{'running':{}}}]}}"));
    }

    @Test
    void aWaitingOrTerminatedContainersReasonIsTheStatus() {
        assertEquals(List.of("0/1", "CrashLoopBackOff", "3 (5m ago)"), pod("{'spec':{'containers':[{'name':'a'}]},"
                + "'status':{'phase':'Running','containerStatuses':[{'name':'a','restartCount':3,'state':{'waiting':"
                + "{'reason':'CrashLoopBackOff'}},'lastState':{'terminated':{'exitCode':1,'finishedAt':'2026-01-01T11:55:00Z'}}}]}}"));
        assertEquals("ExitCode:2", pod("{'spec':{'containers':[{'name':'a'}]},'status':{'phase':'Failed',"
                + "'containerStatuses':[{'name':'a','state':{'terminated':{'exitCode':2}}}]}}").get(1));
        assertEquals("Completed", pod("{'spec':{'containers':[{'name':'a'}]},'status':{'phase':'Succeeded',"
                + "'containerStatuses':[{'name':'a','state':{'terminated':{'exitCode':0,'reason':'Completed'}}}]}}").get(1));
        assertEquals("Evicted", pod("{'spec':{'containers':[{'name':'a'}]},'status':{'phase':'Failed','reason':'Evicted'}}").get(1));
    }

    @Test
    void initContainersShowTheirProgress() {
        assertEquals("Init:0/2", pod("{'spec':{'initContainers':[{'name':'i1'},{'name':'i2'}],'containers':[{'name':'a'}]},"
                + "'status':{'phase':'Pending','initContainerStatuses':[{'name':'i1','state':{'running':{}}},"
                + "{'name':'i2','state':{'waiting':{'reason':'PodInitializing'}}}]}}").get(1));
        assertEquals("Init:Error", pod("{'spec':{'initContainers':[{'name':'i1'}],'containers':[{'name':'a'}]},"
                + "'status':{'phase':'Pending','initContainerStatuses':[{'name':'i1','state':{'terminated':{'exitCode':1,"
                + "'reason':'Error'}}}]}}").get(1));
        assertEquals("Init:ImagePullBackOff", pod("{'spec':{'initContainers':[{'name':'i1'}],'containers':[{'name':'a'}]},"
                + "'status':{'phase':'Pending','initContainerStatuses':[{'name':'i1','state':{'waiting':{'reason':"
                + "'ImagePullBackOff'}}}]}}").get(1));
    }

    @Test
    void aPodBeingDeletedIsTerminating() {
        assertEquals("Terminating", pod("{'metadata':{'deletionTimestamp':'2026-01-01T12:00:30Z'},'spec':{'containers':"
                + "[{'name':'a'}],'nodeName':'n'},'status':{'phase':'Running'}}").get(1));
        assertEquals("Succeeded", pod("{'metadata':{'deletionTimestamp':'2026-01-01T12:00:30Z'},'spec':{'containers':"
                + "[{'name':'a'}]},'status':{'phase':'Succeeded'}}").get(1), "a finished pod keeps its phase");
        assertEquals("SchedulingGated", pod("{'spec':{'containers':[{'name':'a'}]},'status':{'phase':'Pending',"
                + "'conditions':[{'type':'PodScheduled','status':'False','reason':'SchedulingGated'}]}}").get(1));
    }

    @Test
    void wideColumns() {
        ObjectNode bound = obj("{'spec':{'nodeName':'node-1','readinessGates':[{'conditionType':'a'},{'conditionType':'b'}],"
                + "'containers':[{'name':'a'}]},'status':{'podIPs':[{'ip':'10.1.0.4'}],'conditions':[{'type':'a',"
                + "'status':'True'},{'type':'b','status':'False'}]}}");
        assertEquals("10.1.0.4", cell(PODS, "IP", bound));
        assertEquals("node-1", cell(PODS, "Node", bound));
        assertEquals("<none>", cell(PODS, "Nominated Node", bound));
        assertEquals("1/2", cell(PODS, "Readiness Gates", bound));
        ObjectNode pending = obj("{'spec':{'containers':[{'name':'a'}]},'status':{}}");
        assertEquals(List.of("<none>", "<none>", "<none>", "<none>"), List.of(cell(PODS, "IP", pending),
                cell(PODS, "Node", pending), cell(PODS, "Nominated Node", pending), cell(PODS, "Readiness Gates", pending)));
    }

    @Test
    void podTemplates() {
        List<TableColumn> pt = PodTemplatePrinters.podTemplateColumns();
        ObjectNode t = obj("{'template':{'metadata':{'labels':{'x':'1'}},'spec':{'containers':[{'name':'c','image':'i'}]}}}");
        assertEquals(List.of("c", "i", "x=1"), List.of(cell(pt, "Containers", t), cell(pt, "Images", t), cell(pt, "Pod Labels", t)));
        assertEquals("<none>", cell(pt, "Pod Labels", obj("{'template':{}}")));
    }
}
