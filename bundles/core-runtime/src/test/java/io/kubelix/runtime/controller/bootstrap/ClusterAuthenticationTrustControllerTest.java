package io.kubelix.runtime.controller.bootstrap;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.authn.ClusterAuthenticationInfo;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.runtime.controller.ServedStores;
import io.kubelix.runtime.controller.informer.InformerFactory;
import io.kubelix.runtime.registry.GenericStore;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.function.Predicate;

import static io.kubelix.runtime.controller.bootstrap.ClusterAuthenticationTrustController.CONFIG_MAPS;
import static io.kubelix.runtime.controller.bootstrap.ClusterAuthenticationTrustController.NAME;
import static io.kubelix.runtime.controller.bootstrap.ClusterAuthenticationTrustController.NAMESPACE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube's cluster-authentication-trust controller over a real configmaps Store: what it publishes and keeps. */
class ClusterAuthenticationTrustControllerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final Instant NOW = Instant.now();

    private final ServedStores served = new ServedStores();
    private final InformerFactory informers = new InformerFactory(served);
    private ClusterAuthenticationTrustController controller;

    @TempDir
    Path dir;

    @AfterEach
    void tearDown() {
        if (controller != null) {
            controller.deactivate();
        }
        informers.stop();
        served.close();
    }

    static X509Certificate ca(String name, Instant notAfter) throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(256);
        KeyPair keys = generator.generateKeyPair();
        X500Name subject = new X500Name("CN=" + name);
        return new JcaX509CertificateConverter().getCertificate(new JcaX509v3CertificateBuilder(subject,
                BigInteger.valueOf(System.nanoTime()), Date.from(NOW.minus(Duration.ofDays(2))), Date.from(notAfter),
                subject, keys.getPublic()).build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
    }

    private Path write(String file, X509Certificate... certificates) throws Exception {
        return Files.writeString(dir.resolve(file), ClusterAuthenticationTrust.pem(List.of(certificates)));
    }

    @Test
    void theConfigMapHoldsTheCAsAndTheRequestHeaderSettingsAsKubeWritesThem() throws Exception {
        X509Certificate client = ca("client-ca", NOW.plus(Duration.ofDays(1)));
        X509Certificate proxy = ca("front-proxy-ca", NOW.plus(Duration.ofDays(1)));
        ClusterAuthenticationTrust trust = ClusterAuthenticationTrust.NONE.combine(ClusterAuthenticationTrust.of(
                ClusterAuthenticationInfo.clientCA(write("client.crt", client))), NOW).combine(ClusterAuthenticationTrust.of(
                new ClusterAuthenticationInfo(null, write("proxy.crt", proxy), List.of("front-proxy-client"),
                        List.of("X-Remote-User"), List.of(), List.of("X-Remote-Group"), List.of("X-Remote-Extra-"))), NOW);

        ObjectNode data = trust.data(JSON);
        assertEquals(List.of("client-ca-file", "requestheader-username-headers", "requestheader-uid-headers",
                "requestheader-group-headers", "requestheader-extra-headers-prefix", "requestheader-client-ca-file",
                "requestheader-allowed-names"), keys(data));
        assertEquals(Files.readString(dir.resolve("client.crt")), data.path("client-ca-file").asText());
        assertTrue(data.path("client-ca-file").asText().matches("-----BEGIN CERTIFICATE-----\n([A-Za-z0-9+/=]{1,64}\n)+"
                + "-----END CERTIFICATE-----\n"), data::toString);
        assertEquals("[\"X-Remote-User\"]", data.path("requestheader-username-headers").asText());
        assertEquals("[]", data.path("requestheader-uid-headers").asText());
        assertEquals("[\"X-Remote-Group\"]", data.path("requestheader-group-headers").asText());
        assertEquals("[\"X-Remote-Extra-\"]", data.path("requestheader-extra-headers-prefix").asText());
        assertEquals("[\"front-proxy-client\"]", data.path("requestheader-allowed-names").asText());
        assertEquals(trust, ClusterAuthenticationTrust.of(data, JSON), "what it writes, it reads back");
    }

    @Test
    void withoutARequestHeaderCAOnlyTheClientCAIsPublished() throws Exception {
        ObjectNode data = ClusterAuthenticationTrust.of(new ClusterAuthenticationInfo(write("client.crt",
                ca("client-ca", NOW.plus(Duration.ofDays(1)))), null, List.of(), List.of("X-Remote-User"), List.of(),
                List.of(), List.of())).data(JSON);
        assertEquals(List.of("client-ca-file"), keys(data));
    }

    @Test
    void trustIsAddedWithoutDuplicatesAndAnExpiredCAIsDropped() throws Exception {
        X509Certificate old = ca("old", NOW.minus(Duration.ofMinutes(6)));
        X509Certificate recent = ca("recent", NOW.minus(Duration.ofMinutes(4)));
        X509Certificate current = ca("current", NOW.plus(Duration.ofDays(1)));
        ClusterAuthenticationTrust existing = new ClusterAuthenticationTrust(List.of(old, recent, current), List.of(current),
                List.of("a"), List.of("X-Remote-User"), List.of(), List.of(), List.of());
        ClusterAuthenticationTrust mine = new ClusterAuthenticationTrust(List.of(current), List.of(current),
                List.of("b", "a"), List.of("X-Forwarded-User", "X-Remote-User"), List.of(), List.of(), List.of());

        ClusterAuthenticationTrust combined = existing.combine(mine, NOW);
        assertEquals(List.of(recent, current), combined.clientCA(), "within five minutes of its expiry a CA stays");
        assertEquals(List.of(current), combined.requestHeaderCA());
        assertEquals(List.of("a", "b"), combined.allowedNames());
        assertEquals(List.of("X-Remote-User", "X-Forwarded-User"), combined.usernameHeaders());
    }

    @Test
    void anEditedValueThatCannotBeReadCountsAsAbsent() {
        ObjectNode data = JSON.createObjectNode().put("client-ca-file", "not a certificate")
                .put("requestheader-allowed-names", "{not json");
        assertEquals(ClusterAuthenticationTrust.NONE, ClusterAuthenticationTrust.of(data, JSON));
    }

    @Test
    void theConfigMapIsCreatedPutBackAndFollowsTheSourcesAndTheirFiles() throws Exception {
        GenericStore configMaps = served.serve(CONFIG_MAPS, "ConfigMap", true);
        X509Certificate first = ca("first", NOW.plus(Duration.ofDays(1)));
        Path caFile = write("client.crt", first);
        controller = new ClusterAuthenticationTrustController(informers, served, Clock.systemUTC(), Duration.ofMillis(200));
        controller.addSource(() -> ClusterAuthenticationInfo.clientCA(caFile));
        String firstPem = ClusterAuthenticationTrust.pem(List.of(first));
        await(configMaps, cm -> cm.path("data").path("client-ca-file").asText().equals(firstPem));

        // edited: put right again, the foreign key dropped as kube drops it
        configMaps.update(RequestContext.system(NAMESPACE), NAME, (ctx, cm) -> {
            ObjectNode edited = cm.deepCopy();
            ((ObjectNode) edited.get("data")).put("client-ca-file", "").put("mine", "x");
            return edited;
        }, UpdateOptions.DEFAULT);
        await(configMaps, cm -> cm.path("data").path("client-ca-file").asText().equals(firstPem)
                && !cm.path("data").has("mine"));

        // deleted: created again
        String uid = get(configMaps).path("metadata").path("uid").asText();
        configMaps.delete(RequestContext.system(NAMESPACE), NAME, DeleteOptions.DEFAULT);
        await(configMaps, cm -> !cm.path("metadata").path("uid").asText().equals(uid));

        // the file changes on disk: the new CA is added beside the one published
        X509Certificate second = ca("second", NOW.plus(Duration.ofDays(1)));
        write("client.crt", second);
        String both = ClusterAuthenticationTrust.pem(List.of(first, second));
        await(configMaps, cm -> cm.path("data").path("client-ca-file").asText().equals(both));

        // a request header source arrives
        Path proxyFile = write("proxy.crt", second);
        controller.addSource(() -> new ClusterAuthenticationInfo(null, proxyFile, List.of(), List.of("X-Remote-User"),
                List.of(), List.of(), List.of()));
        ObjectNode cm = await(configMaps, c -> c.path("data").has("requestheader-client-ca-file"));
        assertEquals("[\"X-Remote-User\"]", cm.path("data").path("requestheader-username-headers").asText());
        assertFalse(cm.path("data").path("client-ca-file").asText().isEmpty());
    }

    /**
     * Without a source the ConfigMap holds no data, which the configmaps Store drops: rechecks and the
     * configmaps plugin served again (as after its update) find nothing changed and write nothing.
     */
    @Test
    void aConfigMapWithoutDataIsNotWrittenAgain() throws Exception {
        GenericStore configMaps = served.serve(CONFIG_MAPS, "ConfigMap", true);
        ObjectNode stored = JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
        stored.putObject("metadata").put("namespace", NAMESPACE).put("name", NAME);
        String written = configMaps.create(RequestContext.system(NAMESPACE), stored, CreateOptions.DEFAULT)
                .path("metadata").path("resourceVersion").asText();
        controller = new ClusterAuthenticationTrustController(informers, served, Clock.systemUTC(), Duration.ofMillis(50));

        Thread.sleep(500);
        served.serve(CONFIG_MAPS, served.newStore(CONFIG_MAPS, "ConfigMap", true));
        Thread.sleep(500);
        assertEquals(written, get(configMaps).path("metadata").path("resourceVersion").asText());
    }

    private static ObjectNode get(GenericStore store) {
        return store.get(RequestContext.system(NAMESPACE), NAME, "");
    }

    private static ObjectNode await(GenericStore store, Predicate<ObjectNode> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        ObjectNode last = null;
        while (System.nanoTime() < deadline) {
            try {
                last = get(store);
                if (wanted.test(last)) {
                    return last;
                }
            } catch (StatusException e) {
                // not there yet
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the ConfigMap never became what was expected: " + last);
    }

    private static List<String> keys(ObjectNode o) {
        List<String> keys = new java.util.ArrayList<>();
        o.fieldNames().forEachRemaining(keys::add);
        return keys;
    }
}
