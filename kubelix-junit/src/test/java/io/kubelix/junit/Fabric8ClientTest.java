package io.kubelix.junit;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fabric8's client, injected by {@link KubelixTest} into a field and into parameters, against the
 * class's own server: create and get, server-side apply by two managers, a watch (a WebSocket, as
 * fabric8 opens every watch), and a namespace of each test's own.
 */
@KubelixTest
class Fabric8ClientTest {
    private static final Set<String> NAMESPACES_SEEN = ConcurrentHashMap.newKeySet();

    private static KubelixServer classServer;

    private KubernetesClient client;

    @TestNamespace
    private String namespace;

    @BeforeAll
    static void rememberTheServer(KubelixServer server) {
        classServer = server;
    }

    @Test
    void createsAndGetsAConfigMap() {
        client.configMaps().inNamespace(namespace).resource(configMap("settings", Map.of("mode", "fast"))).create();

        ConfigMap read = client.configMaps().inNamespace(namespace).withName("settings").get();
        assertEquals(Map.of("mode", "fast"), read.getData());
        assertNotNull(read.getMetadata().getUid());
    }

    @Test
    void serverSideApplyMergesTwoManagers() {
        client.configMaps().inNamespace(namespace).resource(configMap("applied", Map.of("a", "1")))
                .fieldManager("first").serverSideApply();
        client.configMaps().inNamespace(namespace).resource(configMap("applied", Map.of("b", "2")))
                .fieldManager("second").serverSideApply();

        ConfigMap read = client.configMaps().inNamespace(namespace).withName("applied").get();
        assertEquals(Map.of("a", "1", "b", "2"), read.getData());
        assertEquals(Set.of("first", "second"), Set.copyOf(read.getMetadata().getManagedFields().stream()
                .map(f -> f.getManager()).toList()));
    }

    @Test
    void watchSeesChangesAsTheyHappen() throws Exception {
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        try (Watch ignored = client.configMaps().inNamespace(namespace).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, ConfigMap cm) {
                // The namespace's kube-root-ca.crt, as every namespace's, is not the test's.
                if (!cm.getMetadata().getName().equals("kube-root-ca.crt")) {
                    events.add(action + " " + cm.getMetadata().getName());
                }
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        })) {
            client.configMaps().inNamespace(namespace).resource(configMap("watched", Map.of("k", "1"))).create();
            assertEquals("ADDED watched", events.poll(30, TimeUnit.SECONDS));
            client.configMaps().inNamespace(namespace).withName("watched").delete();
            assertEquals("DELETED watched", events.poll(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void eachTestHasANamespaceOfItsOwn(@TestNamespace String sameNamespace, KubernetesClient sameClient,
                                       @Kubeconfig Path kubeconfig) {
        assertEquals(namespace, sameNamespace, "field and parameter get the test's one namespace");
        assertTrue(client == sameClient, "one client per server");
        assertTrue(namespace.startsWith("each-test-has-a-namespace-of-its-own-"), namespace);
        assertTrue(client.configMaps().inNamespace(namespace).list().getItems().stream()
                        .allMatch(cm -> cm.getMetadata().getName().equals("kube-root-ca.crt")),
                "nothing of the other tests is in this namespace, only its kube-root-ca.crt");
        assertEquals("Active", client.namespaces().withName(namespace).get().getStatus().getPhase());
        assertTrue(Files.isRegularFile(kubeconfig));
    }

    @Test
    void namespacesDifferFromTestToTest() {
        assertTrue(NAMESPACES_SEEN.add(namespace));
        client.configMaps().inNamespace(namespace).resource(configMap("mine", Map.of())).create();
    }

    @Test
    void namespacesDifferFromTestToTestAgain() {
        assertTrue(NAMESPACES_SEEN.add(namespace));
        client.configMaps().inNamespace(namespace).resource(configMap("mine", Map.of())).create();
    }

    @Nested
    class WithinTheClass {
        @Test
        void usesTheEnclosingClassesServer(KubelixServer server, @TestNamespace String nested) {
            assertSame(classServer, server);
            assertTrue(nested.startsWith("uses-the-enclosing-classes-server-"), nested);
        }
    }

    private static ConfigMap configMap(String name, Map<String, String> data) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().withData(data).build();
    }
}
