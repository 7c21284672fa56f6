package io.kubelix.resource.core.certificates;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.resource.core.config.ConfigSpecs;
import io.kubelix.testing.store.MapStore;
import io.kubelix.testing.informer.FakeInformerFactory;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube's root CA publisher's decision for one namespace, over caches the test fills. */
class RootCACertPublisherTest {
    private static final String CA = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    private static final String OTHER_CA = "-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n";

    private final FakeInformerFactory caches = new FakeInformerFactory();
    private final MapStore configMaps = new MapStore(ConfigSpecs.configMapSpec());
    private String rootCA = CA;
    private final RootCACertPublisher publisher = new RootCACertPublisher(configMaps, () -> rootCA, caches);

    private void namespace(String name, boolean terminating) {
        ObjectNode ns = JsonNodeFactory.instance.objectNode();
        ns.putObject("metadata").put("name", name);
        ns.putObject("status").put("phase", terminating ? "Terminating" : "Active");
        caches.forResource(RootCACertPublisher.NAMESPACES).put(name, ns);
    }

    /** What the store holds, as the informer would see it. */
    private ObjectNode cached(String namespace) {
        ObjectNode cm = configMaps.objects.get(RootCACertPublisher.NAME);
        caches.forResource(RootCACertPublisher.CONFIGMAPS).put(namespace + "/" + RootCACertPublisher.NAME, cm);
        return cm;
    }

    @Test
    void anActiveNamespaceGetsTheConfigMapWithKubesDescription() {
        namespace("team", false);
        namespace("leaving", true);

        assertFalse(publisher.sync("leaving"), "a terminating namespace gets none");
        assertFalse(publisher.sync("gone"), "nor one that is gone");
        assertTrue(publisher.sync("team"));
        ObjectNode cm = cached("team");
        assertEquals(CA, cm.path("data").path("ca.crt").asText());
        assertEquals("Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints"
                        + " such as the internal service IP or kubernetes.default.svc. No other usage is guaranteed across"
                        + " distributions of Kubernetes clusters.",
                cm.path("metadata").path("annotations").path("kubernetes.io/description").asText());
        assertFalse(publisher.sync("team"), "nothing to do once it is there");
    }

    @Test
    void changedDataIsPutBackAndOtherMetadataKept() {
        namespace("team", false);
        publisher.sync("team");
        ObjectNode cm = cached("team");
        cm.putObject("data").put("ca.crt", "mine").put("extra", "x");
        cm.with("metadata").with("labels").put("keep", "me");
        cm.with("metadata").with("annotations").remove("kubernetes.io/description");

        assertTrue(publisher.sync("team"));
        cm = cached("team");
        assertEquals(1, cm.path("data").size(), "data is exactly ca.crt, as kube writes it");
        assertEquals(CA, cm.path("data").path("ca.crt").asText());
        assertEquals("me", cm.path("metadata").path("labels").path("keep").asText());
        assertFalse(cm.path("metadata").path("annotations").path("kubernetes.io/description").asText().isEmpty());
    }

    @Test
    void serversWithTheirOwnCAsAddThemInTurnAndThenLeaveTheBundleAlone() {
        namespace("team", false);
        RootCACertPublisher other = new RootCACertPublisher(configMaps, () -> OTHER_CA, caches);
        assertTrue(publisher.sync("team"));
        cached("team");
        assertTrue(other.sync("team"), "the other server's CA is missing: it adds it");
        cached("team");
        assertFalse(publisher.sync("team"), "its own CA is there: nothing to write");
        assertFalse(other.sync("team"));
        assertEquals(OTHER_CA + CA, cached("team").path("data").path("ca.crt").asText());
    }

    @Test
    void aDeletedOneIsCreatedAgainAndANewCAPublished() {
        namespace("team", false);
        publisher.sync("team");
        configMaps.objects.clear();
        caches.forResource(RootCACertPublisher.CONFIGMAPS).remove("team/" + RootCACertPublisher.NAME);
        assertTrue(publisher.sync("team"), "deleted: created again");
        cached("team");

        rootCA = OTHER_CA;
        assertTrue(publisher.sync("team"), "the CA file changed: the new CA is published");
        assertEquals(OTHER_CA + CA, cached("team").path("data").path("ca.crt").asText(),
                "the new CA first; the old one stays trusted");

        rootCA = null;
        assertFalse(publisher.sync("team"), "without a CA nothing is written");
    }
}
