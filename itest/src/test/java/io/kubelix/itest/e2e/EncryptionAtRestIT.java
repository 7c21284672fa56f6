package io.kubelix.itest.e2e;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Encryption at rest as a user meets it, on the default SQLite storage: with kube's
 * {@code --encryption-provider-config}, a secret created with kubectl is stored under kube's
 * {@code k8s:enc:aescbc:v1:key1:} prefix with none of its data readable in the database file,
 * while kubectl reads it as written; it survives a restart; and a key rotation done the way kube
 * documents it (a new key first, picked up by {@code --encryption-provider-config-automatic-reload},
 * every secret rewritten with {@code kubectl replace}, the old key removed and the server
 * restarted) leaves every secret readable. A configmap, which the configuration does not name, is
 * stored as it is.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EncryptionAtRestIT extends KubectlSuite {
    private static final String KEY1 = Base64.getEncoder().encodeToString("key one, thirty-two bytes long!!".getBytes(StandardCharsets.UTF_8));
    private static final String KEY2 = Base64.getEncoder().encodeToString("key two, thirty-two bytes long!!".getBytes(StandardCharsets.UTF_8));
    private static final String PASSWORD = "correct-horse-battery-staple";
    private static final String PASSWORD_BASE64 = Base64.getEncoder().encodeToString(PASSWORD.getBytes(StandardCharsets.UTF_8));
    private static final String PLAIN_VALUE = "stored-as-it-is-0123";

    EncryptionAtRestIT() {
        super("encryption-at-rest", "secrets,configmaps");
    }

    @Override
    String[] flags() throws IOException {
        writeConfig("{name: key1, secret: " + KEY1 + "}");
        return new String[] {"--encryption-provider-config", work.resolve("encryption.yaml").toString(),
                "--encryption-provider-config-automatic-reload"};
    }

    private void writeConfig(String keys) throws IOException {
        // written whole and then moved, as a config management tool does, so no reload sees half a file
        Path next = write("encryption.yaml.next", """
                apiVersion: apiserver.config.k8s.io/v1
                kind: EncryptionConfiguration
                resources:
                  - resources: [secrets]
                    providers:
                      - aescbc:
                          keys: [%s]
                      - identity: {}
                """.formatted(keys));
        Files.move(next, work.resolve("encryption.yaml"), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** The database as it is on disk: the file and its write-ahead log, where the latest writes are until a checkpoint. */
    private String database() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (String name : new String[] {"kubelix.db", "kubelix.db-wal"}) {
            Path file = server.dataDir().resolve(name);
            if (Files.exists(file)) {
                bytes.write(Files.readAllBytes(file));
            }
        }
        return bytes.toString(StandardCharsets.ISO_8859_1);
    }

    private String password(String name) throws Exception {
        return kubectl.ok("-n", "default", "get", "secret", name, "-o", "jsonpath={.data.password}").stdout();
    }

    @Test
    @Order(1)
    void aSecretIsStoredEncryptedAndReadThroughKubectl() throws Exception {
        kubectl.ok("-n", "default", "create", "secret", "generic", "db", "--from-literal=password=" + PASSWORD);
        kubectl.ok("-n", "default", "create", "configmap", "plain", "--from-literal=value=" + PLAIN_VALUE);
        assertEquals(PASSWORD_BASE64, password("db"));

        String db = database();
        assertTrue(db.contains("k8s:enc:aescbc:v1:key1:"), "the secret is stored under kube's prefix");
        assertFalse(db.contains(PASSWORD_BASE64), "the secret's data is not readable in the database");
        assertFalse(db.contains(PASSWORD), "the secret's data is not readable in the database");
        assertTrue(db.contains(PLAIN_VALUE), "a configmap is not encrypted: the configuration does not name it");
    }

    @Test
    @Order(2)
    void itSurvivesARestart() throws Exception {
        server.restart(READY_TIMEOUT);
        server.awaitServed(kubectl, READY_TIMEOUT, "secrets");
        assertEquals(PASSWORD_BASE64, password("db"));
    }

    @Test
    @Order(3)
    void aKeyRotationAsKubeDocumentsItKeepsEverySecretReadable() throws Exception {
        // 1. the new key first: new writes use it once the file is reloaded; key1 still reads
        writeConfig("{name: key2, secret: " + KEY2 + "}, {name: key1, secret: " + KEY1 + "}");
        await("the configuration reloaded", server::log, log -> log.contains("encryption at rest reloaded"));
        kubectl.ok("-n", "default", "create", "secret", "generic", "after-reload", "--from-literal=password=" + PASSWORD);
        assertTrue(database().contains("k8s:enc:aescbc:v1:key2:"), "a new secret is stored under key2");

        // 2. every secret rewritten: kubectl get secrets -A -o json | kubectl replace -f -
        Path all = write("secrets.json", kubectl.ok("get", "secrets", "-A", "-o", "json").stdout());
        kubectl.ok("replace", "-f", all.toString());

        // 3. key1 removed, and the server restarted: every secret still reads
        writeConfig("{name: key2, secret: " + KEY2 + "}");
        server.restart(READY_TIMEOUT);
        server.awaitServed(kubectl, READY_TIMEOUT, "secrets");
        assertEquals(PASSWORD_BASE64, password("db"));
        assertEquals(PASSWORD_BASE64, password("after-reload"));
        kubectl.ok("get", "secrets", "-A", "-o", "json");
        assertFalse(database().contains(PASSWORD_BASE64), "no secret's data is readable in the database");
    }
}
