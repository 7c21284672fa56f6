package io.kubelix.resource.certificates;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class CSRPrintersTest {

    @Test
    void theColumnsAreKubes() throws Exception {
        List<TableColumn> columns = CSRPrinters.columns();
        assertEquals(List.of("Name", "Age", "SignerName", "Requestor", "RequestedDuration", "Condition"),
                columns.stream().map(TableColumn::name).toList());
        ObjectNode csr = TestRequests.csr("jane", SignerNames.KUBE_APISERVER_CLIENT);
        csr.with("spec").put("username", "admin");
        assertEquals("<none>", columns.get(4).cell().apply(csr));
        csr.with("spec").put("expirationSeconds", 86400);
        assertEquals(List.of(SignerNames.KUBE_APISERVER_CLIENT, "admin", "24h", "Pending"),
                columns.subList(2, 6).stream().map(c -> c.cell().apply(csr)).toList());
    }

    @Test
    void theStoreIsClusterScopedWithKubesShortName() {
        StoreSpec spec = CertificatesRESTStorageProvider.csrSpec();
        assertEquals(false, spec.namespaced());
        assertEquals(List.of("csr"), spec.shortNames());
    }
}
