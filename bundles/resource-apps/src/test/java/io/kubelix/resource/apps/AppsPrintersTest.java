package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.kubelix.resource.apps.Fixtures.create;
import static io.kubelix.resource.apps.Fixtures.json;
import static io.kubelix.resource.apps.Fixtures.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;

class AppsPrintersTest {

    private static List<String> headers(List<TableColumn> columns) {
        return columns.stream().map(c -> c.name() + (c.priority() > 0 ? "*" : "")).toList();
    }

    /** The cells but AGE, which the Table builder renders. */
    private static List<Object> cells(List<TableColumn> columns, ObjectNode o) {
        List<Object> out = new ArrayList<>();
        columns.stream().filter(c -> !c.isAge()).forEach(c -> out.add(c.cell().apply(o)));
        return out;
    }

    @Test
    void deploymentColumnsAndCells() {
        ObjectNode d = workload("Deployment", "web");
        create(WorkloadStrategy.deployment(), d);
        d.set("status", json("{'replicas':2,'readyReplicas':1,'updatedReplicas':2,'availableReplicas':1}"));

        List<TableColumn> columns = AppsPrinters.deploymentColumns();
        assertEquals(List.of("Name", "Ready", "Up-to-date", "Available", "Age", "Containers*", "Images*", "Selector*"),
                headers(columns));
        assertEquals(List.of("web", "1/2", 2L, 1L, "nginx", "nginx", "app=web"), cells(columns, d));
    }

    @Test
    void replicaSetAndStatefulSetColumns() {
        ObjectNode r = workload("ReplicaSet", "web");
        create(WorkloadStrategy.replicaSet(), r);
        List<TableColumn> rs = AppsPrinters.replicaSetColumns();
        assertEquals(List.of("Name", "Desired", "Current", "Ready", "Age", "Containers*", "Images*", "Selector*"), headers(rs));
        assertEquals(List.of("web", 2L, 0L, 0L, "nginx", "nginx", "app=web"), cells(rs, r));

        ObjectNode s = workload("StatefulSet", "db");
        ((ObjectNode) s.path("spec")).remove("strategy");
        create(WorkloadStrategy.statefulSet(), s);
        List<TableColumn> sts = AppsPrinters.statefulSetColumns();
        assertEquals(List.of("Name", "Ready", "Age", "Containers*", "Images*"), headers(sts));
        assertEquals(List.of("db", "0/2", "nginx", "nginx"), cells(sts, s));
    }

    @Test
    void daemonSetShowsItsNodeSelector() {
        ObjectNode d = workload("DaemonSet", "agent");
        ((ObjectNode) d.path("spec")).remove(List.of("replicas", "strategy"));
        ((ObjectNode) d.path("spec").path("template").path("spec")).set("nodeSelector",
                json("{'kubernetes.io/os':'linux','disk':'ssd'}"));
        create(WorkloadStrategy.daemonSet(), d);

        List<TableColumn> columns = AppsPrinters.daemonSetColumns();
        assertEquals(List.of("Name", "Desired", "Current", "Ready", "Up-to-date", "Available", "Node Selector", "Age",
                "Containers*", "Images*", "Selector*"), headers(columns));
        assertEquals(List.of("agent", 0L, 0L, 0L, 0L, 0L, "disk=ssd,kubernetes.io/os=linux", "nginx", "nginx", "app=agent"),
                cells(columns, d));
        assertEquals("<none>", AppsPrinters.formatLabels(json("{}")));
    }

    @Test
    void controllerRevisionNamesItsController() {
        ObjectNode r = json("{'metadata':{'name':'web-5d9','ownerReferences':[{'apiVersion':'apps/v1','kind':'DaemonSet',"
                + "'name':'agent','uid':'u','controller':true}]},'data':{},'revision':3}");
        List<TableColumn> columns = AppsPrinters.controllerRevisionColumns();
        assertEquals(List.of("Name", "Controller", "Revision", "Age"), headers(columns));
        assertEquals(List.of("web-5d9", "daemonset.apps/agent", 3L), cells(columns, r));
        assertEquals(List.of("x", "<none>", 0L), cells(columns, json("{'metadata':{'name':'x'},'data':{}}")));
    }
}
