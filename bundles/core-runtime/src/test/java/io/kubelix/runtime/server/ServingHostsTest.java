package io.kubelix.runtime.server;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The names the serving certificate covers, as kube-apiserver's self-signed one does, and an operator's. */
class ServingHostsTest {

    @Test
    void kubesInClusterNamesTheFirstServiceIpAndTheOperatorsNames() throws Exception {
        Settings settings = new Settings(Map.of("service-cluster-ip-range", "10.96.0.0/12",
                "tls-san", "api.example.com, 192.0.2.7"), null);

        assertEquals(List.of("192.0.2.1", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
                        "kubernetes.default.svc.cluster.local", "10.96.0.1", "api.example.com", "192.0.2.7"),
                GenericAPIServer.servingHosts(InetAddress.getByName("192.0.2.1"), settings));
    }

    @Test
    void aServiceRangeThatIsNoCidrStopsTheStartNamingIt() {
        Settings settings = new Settings(Map.of("service-cluster-ip-range", "ten", "tls-san", ""), null);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GenericAPIServer.servingHosts(InetAddress.getLoopbackAddress(), settings));
        assertEquals("invalid service-cluster-ip-range \"ten\": not a CIDR: ten", e.getMessage());
    }
}
