package io.kubelix.resource.core.service;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.resource.core.testing.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ServicePrintersTest {

    private static List<Object> row(List<TableColumn> columns, ObjectNode obj) {
        return columns.stream().filter(c -> !c.isAge()).map(c -> c.cell().apply(obj)).toList();
    }

    @Test
    void serviceColumnsAsKubectlShowsThem() {
        List<TableColumn> columns = ServicePrinters.serviceColumns();
        assertEquals(List.of("Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age", "Selector"),
                columns.stream().map(TableColumn::name).toList());
        assertEquals(1, columns.get(6).priority(), "SELECTOR is -o wide only");
        assertEquals(List.of("web", "ClusterIP", "10.0.0.20", "<none>", "80/TCP,443/TCP", "app=web,tier=fe"), row(columns,
                Json.obj("{'metadata':{'name':'web'},'spec':{'type':'ClusterIP','clusterIP':'10.0.0.20','selector':"
                        + "{'tier':'fe','app':'web'},'ports':[{'port':80,'protocol':'TCP'},{'port':443,'protocol':'TCP'}]}}")));
        assertEquals(List.of("np", "NodePort", "10.0.0.21", "1.2.3.4", "80:30080/TCP", "<none>"), row(columns,
                Json.obj("{'metadata':{'name':'np'},'spec':{'type':'NodePort','clusterIP':'10.0.0.21','externalIPs':['1.2.3.4'],"
                        + "'ports':[{'port':80,'nodePort':30080,'protocol':'TCP'}]}}")));
        assertEquals(List.of("lb", "LoadBalancer", "10.0.0.22", "<pending>", "53:31000/UDP", "<none>"), row(columns,
                Json.obj("{'metadata':{'name':'lb'},'spec':{'type':'LoadBalancer','clusterIP':'10.0.0.22',"
                        + "'ports':[{'port':53,'nodePort':31000,'protocol':'UDP'}]},'status':{'loadBalancer':{}}}")));
        assertEquals("lb.example.co...", ServicePrinters.externalIP(Json.obj("{'spec':{'type':'LoadBalancer'},"
                + "'status':{'loadBalancer':{'ingress':[{'hostname':'lb.example.com.internal'}]}}}"), false));
        assertEquals(List.of("ext", "ExternalName", "<none>", "example.com", "<none>", "<none>"), row(columns,
                Json.obj("{'metadata':{'name':'ext'},'spec':{'type':'ExternalName','externalName':'example.com'}}")));
    }

    @Test
    void endpointsShowThreeAddressesThenHowManyMore() {
        ObjectNode ep = Json.obj("{'subsets':[{'addresses':[{'ip':'10.1.0.1'},{'ip':'10.1.0.2'}],'ports':[{'port':80},{'port':443}]}]}");
        assertEquals("10.1.0.1:80,10.1.0.2:80,10.1.0.1:443 + 1 more...", ServicePrinters.endpoints(ep.path("subsets")));
        assertEquals("<none>", ServicePrinters.endpoints(Json.obj("{}").path("subsets")));
        assertEquals("[fd00::1]:80", ServicePrinters.endpoints(
                Json.obj("{'subsets':[{'addresses':[{'ip':'fd00::1'}],'ports':[{'port':80}]}]}").path("subsets")));
    }
}
