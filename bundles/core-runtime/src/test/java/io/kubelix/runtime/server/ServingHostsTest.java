package io.kubelix.runtime.server;

import io.kubelix.runtime.controller.bootstrap.KubernetesServiceController;
import org.junit.jupiter.api.Test;
import org.osgi.framework.BundleContext;

import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The names the serving certificate covers, as kube-apiserver's self-signed one does, and an operator's. */
class ServingHostsTest {

    @Test
    void kubesInClusterNamesTheFirstServiceIpAndTheOperatorsNames() throws Exception {
        Settings settings = flags(Map.of("service-cluster-ip-range", "10.96.0.0/12",
                "tls-san", "api.example.com, 192.0.2.7"));

        assertEquals(List.of("192.0.2.1", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
                        "kubernetes.default.svc.cluster.local", "10.96.0.1", "api.example.com", "192.0.2.7"),
                GenericAPIServer.servingHosts(InetAddress.getByName("192.0.2.1"), settings));
    }

    @Test
    void theAdvertiseAddressIsNamedSoClientsReachingItWithoutSniAreServedItsName() throws Exception {
        Settings settings = flags(Map.of("advertise-address", "192.0.2.9"));

        assertEquals(List.of("192.0.2.1", "192.0.2.9", "kubernetes", "kubernetes.default", "kubernetes.default.svc",
                        "kubernetes.default.svc.cluster.local", "10.0.0.1"),
                GenericAPIServer.servingHosts(InetAddress.getByName("192.0.2.1"), settings));
    }

    @Test
    void withALoopbackBindAddressTheHostsFirstAddressIsNamedAsKubeAdvertisesIt() throws Exception {
        List<String> hosts = GenericAPIServer.servingHosts(InetAddress.getLoopbackAddress(),
                flags(Map.of()));
        InetAddress advertised = InetAddress.getByName(KubernetesServiceController.advertiseAddress(null, "127.0.0.1"));
        if (advertised.isLoopbackAddress()) {
            assertEquals("kubernetes", hosts.get(1), "a host without another address adds none: " + hosts);
        } else {
            assertEquals(List.of("127.0.0.1", advertised.getHostAddress()), hosts.subList(0, 2));
        }
    }

    @Test
    void aServiceRangeThatIsNoCidrStopsTheStartNamingIt() {
        Settings settings = flags(Map.of("service-cluster-ip-range", "ten", "tls-san", ""));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GenericAPIServer.servingHosts(InetAddress.getLoopbackAddress(), settings));
        assertEquals("invalid service-cluster-ip-range \"ten\": not a CIDR: ten", e.getMessage());
    }

    /** Settings of the configuration given and no framework properties. */
    private static Settings flags(Map<String, String> config) {
        BundleContext none = (BundleContext) Proxy.newProxyInstance(ServingHostsTest.class.getClassLoader(),
                new Class<?>[] {BundleContext.class}, (proxy, method, args) -> null);
        return new Settings(config, none);
    }
}
