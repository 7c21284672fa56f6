package io.kubelix.itest.e2e;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.vertx5.Vertx5HttpClientFactory;
import io.kubelix.junit.Kubeconfig;
import io.kubelix.junit.KubelixTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fabric8's {@code kubernetes-client} with its default settings, as a new user runs it: every watch
 * is opened as a WebSocket ({@code onlyHttpWatches} is false), over each of its HTTP clients
 * (Vert.x 5, its default, and the JDK's). {@code watch()} gets ADDED, MODIFIED and DELETED as they
 * happen, and {@code inform()} syncs, then sees adds, updates and deletes. Each wait is for an event
 * that must come, bounded only so a broken server fails the test rather than hangs it. Server-side
 * apply through the client conflicts with another manager's field (409, one cause per field) unless
 * it forces. The server is kubelix-junit's: the distribution's bundles in this JVM.
 */
@KubelixTest
class Fabric8ClientIT {
    /**
     * The label of the test's own configmaps, which its watches and informers select: every
     * namespace also holds the root CA publisher's kube-root-ca.crt, as in a cluster.
     */
    private static final String OWN = "fabric8-test";

    private static final long WAIT_SECONDS = 30;

    @Kubeconfig
    static Path kubeconfig;

    @ParameterizedTest
    @ValueSource(strings = {"vertx", "jdk"})
    void watchGetsEveryChangeAsItHappens(String httpClient) throws Exception {
        try (KubernetesClient client = client(httpClient)) {
            String ns = namespace(client, "watch-" + httpClient);
            BlockingQueue<String> events = new LinkedBlockingQueue<>();
            BlockingQueue<WatcherException> closed = new LinkedBlockingQueue<>();
            try (Watch ignored = client.configMaps().inNamespace(ns).withLabel(OWN, "true").watch(new Watcher<>() {
                @Override
                public void eventReceived(Action action, ConfigMap cm) {
                    events.add(action + " " + cm.getMetadata().getName() + " " + cm.getData());
                }

                @Override
                public void onClose(WatcherException cause) {
                    closed.add(cause);
                }
            })) {
                client.configMaps().inNamespace(ns).resource(configMap(ns, "a", "1")).create();
                assertEquals("ADDED a {k=1}", events.poll(WAIT_SECONDS, TimeUnit.SECONDS));

                client.configMaps().inNamespace(ns).withName("a").edit(cm -> {
                    cm.setData(Map.of("k", "2"));
                    return cm;
                });
                assertEquals("MODIFIED a {k=2}", events.poll(WAIT_SECONDS, TimeUnit.SECONDS));

                client.configMaps().inNamespace(ns).withName("a").delete();
                assertEquals("DELETED a {k=2}", events.poll(WAIT_SECONDS, TimeUnit.SECONDS));
            }
            assertTrue(closed.isEmpty(), "the watch did not fail: " + closed);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"vertx", "jdk"})
    void informerSyncsThenSeesChanges(String httpClient) throws Exception {
        try (KubernetesClient client = client(httpClient)) {
            String ns = namespace(client, "inform-" + httpClient);
            client.configMaps().inNamespace(ns).resource(configMap(ns, "before", "0")).create();
            BlockingQueue<String> events = new LinkedBlockingQueue<>();
            SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace(ns).withLabel(OWN, "true").inform(
                    new ResourceEventHandler<>() {
                        @Override
                        public void onAdd(ConfigMap cm) {
                            events.add("add " + cm.getMetadata().getName());
                        }

                        @Override
                        public void onUpdate(ConfigMap old, ConfigMap cm) {
                            events.add("update " + cm.getMetadata().getName() + " " + cm.getData());
                        }

                        @Override
                        public void onDelete(ConfigMap cm, boolean deletedFinalStateUnknown) {
                            events.add("delete " + cm.getMetadata().getName() + " " + deletedFinalStateUnknown);
                        }
                    });
            try {
                // inform() returns once the informer has listed.
                assertTrue(informer.hasSynced());
                assertEquals("add before", events.poll(WAIT_SECONDS, TimeUnit.SECONDS));
                assertEquals(1, informer.getStore().list().size());

                client.configMaps().inNamespace(ns).resource(configMap(ns, "after", "1")).create();
                assertEquals("add after", events.poll(WAIT_SECONDS, TimeUnit.SECONDS));
                client.configMaps().inNamespace(ns).withName("after").edit(cm -> {
                    cm.setData(Map.of("k", "2"));
                    return cm;
                });
                assertEquals("update after {k=2}", events.poll(WAIT_SECONDS, TimeUnit.SECONDS));
                client.configMaps().inNamespace(ns).withName("before").delete();
                assertEquals("delete before false", events.poll(WAIT_SECONDS, TimeUnit.SECONDS));
                assertEquals(1, informer.getStore().list().size());
                assertTrue(informer.isWatching(), "the informer watches after its relist");
            } finally {
                informer.stop();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"vertx", "jdk"})
    void serverSideApplyConflictsWithAnotherManagerUnlessForced(String httpClient) throws Exception {
        try (KubernetesClient client = client(httpClient)) {
            String ns = namespace(client, "apply-" + httpClient);
            client.configMaps().inNamespace(ns).resource(configMap(ns, "applied", "1")).fieldManager("first")
                    .serverSideApply();

            KubernetesClientException conflict = assertThrows(KubernetesClientException.class, () -> client.configMaps()
                    .inNamespace(ns).resource(configMap(ns, "applied", "2")).fieldManager("second").serverSideApply());
            assertEquals(409, conflict.getCode());
            assertEquals("Conflict", conflict.getStatus().getReason());
            assertTrue(conflict.getStatus().getMessage().startsWith("Apply failed with 1 conflict: conflict with \"first\""),
                    conflict.getStatus().getMessage());
            assertEquals(1, conflict.getStatus().getDetails().getCauses().size());
            assertEquals("FieldManagerConflict", conflict.getStatus().getDetails().getCauses().get(0).getReason());
            assertEquals(".data.k", conflict.getStatus().getDetails().getCauses().get(0).getField());
            assertEquals("1", client.configMaps().inNamespace(ns).withName("applied").get().getData().get("k"));

            ConfigMap forced = client.configMaps().inNamespace(ns).resource(configMap(ns, "applied", "2"))
                    .fieldManager("second").forceConflicts().serverSideApply();
            assertEquals("2", forced.getData().get("k"));
            String owner = forced.getMetadata().getManagedFields().stream()
                    .filter(f -> f.getFieldsV1() != null && f.getFieldsV1().getAdditionalProperties().toString().contains("f:k"))
                    .map(f -> f.getManager()).findFirst().orElse("nobody");
            assertEquals("second", owner, "the forced apply took the field over");
        }
    }

    /** The server's admin kubeconfig, otherwise fabric8's defaults, over the named HTTP client. */
    private KubernetesClient client(String httpClient) throws Exception {
        Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
        assertFalse(config.isOnlyHttpWatches(), "fabric8 watches over WebSockets by default");
        HttpClient.Factory factory = httpClient.equals("jdk") ? new JdkHttpClientFactory() : new Vertx5HttpClientFactory();
        return new KubernetesClientBuilder().withConfig(config).withHttpClientFactory(factory).build();
    }

    private static String namespace(KubernetesClient client, String name) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
                .create();
        return name;
    }

    private static ConfigMap configMap(String ns, String name, String value) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace(ns).addToLabels(OWN, "true").endMetadata()
                .withData(Map.of("k", value)).build();
    }
}
