package io.kubelix.runtime.storage.encryptionconfig;

import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.ValueTransformer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Loading {@code --encryption-provider-config}: kube's values read, kube's rules and messages. */
class ResourceTransformersTest {
    /** bytes 0..31 and 0..15, the keys of the vectors the provider tests check. */
    private static final String KEY32 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";
    private static final String KEY16 = "AAECAwQFBgcICQoLDA0ODw==";
    /** The aesgcm vector under key2 (the 16-byte key) and /registry/secrets/default/s1. */
    private static final String GCM16 = "azhzOmVuYzphZXNnY206djE6a2V5MjqwsbKztLW2t7i5ursl69v0qfMJBZx5PmWnH2vE9XE2B6C0cpT"
            + "Sn2jXmCkAsardYQnPB/eDFm/aeVLuWuZ+2YoD6NwinIo8zed0EYnVThxmNbiLyd6kooG6IgudxNCj8EhzMrY8zfRzYKhiL+K5omc1j4Glv"
            + "Xis1NOpMfZaGovVhnjYZ+zSjgkyIVOrPFVAIqZ4";
    private static final String CBC = "azhzOmVuYzphZXNjYmM6djE6a2V5MTqgoaKjpKWmp6ipqqusra6v2lToger65o80qi3bAOVrUjcnIaVaiXMh"
            + "hz7OBvcZzchu325vB2WxX0Xo6bLFMtMSk2vkQjeK2qylE6XmnTm5htxLX+MYeq3S+W2k4lQ0hCiOCzl64H6DWLcFuI1L/povFQTZdh6FUPIhFP"
            + "vlm154LQouT3xqdtVMAw3eMCm+nDM=";
    private static final byte[] AD = "/registry/secrets/default/s1".getBytes(StandardCharsets.UTF_8);
    private static final GroupResource SECRETS = GroupResource.of("", "secrets");

    @TempDir
    Path dir;

    private ResourceTransformers load(String yaml) throws IOException {
        Path file = dir.resolve("encryption.yaml");
        Files.writeString(file, yaml);
        return ResourceTransformers.load(file, EncryptionConfigReader.yamlMapper());
    }

    private String error(String yaml) {
        return assertThrows(IllegalArgumentException.class, () -> load(yaml)).getMessage();
    }

    private static String config(String resources) {
        return "apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n" + resources;
    }

    @Test
    void readsWhatKubeApiserverWrote() throws IOException {
        ResourceTransformers t = load(config("""
                  - resources: [secrets]
                    providers:
                      - aesgcm:
                          keys:
                            - {name: key2, secret: %s}
                      - aescbc:
                          keys:
                            - {name: key1, secret: %s}
                      - identity: {}
                """.formatted(KEY16, KEY32)));
        ValueTransformer secrets = t.forResource(SECRETS);
        ValueTransformer.Read gcm = secrets.transformFromStorage(Base64.getDecoder().decode(GCM16), AD);
        assertTrue(new String(gcm.data(), StandardCharsets.UTF_8).startsWith("{\"kind\":\"Secret\""));
        assertEquals(false, gcm.stale());
        ValueTransformer.Read cbc = secrets.transformFromStorage(Base64.getDecoder().decode(CBC), AD);
        assertTrue(new String(cbc.data(), StandardCharsets.UTF_8).startsWith("{\"kind\":\"Secret\""));
        assertTrue(cbc.stale(), "under the second provider: rewritten by the next update");
        assertTrue(new String(secrets.transformToStorage("{}".getBytes(StandardCharsets.UTF_8), AD),
                StandardCharsets.ISO_8859_1).startsWith("k8s:enc:aesgcm:v1:key2:"));
        assertSame(ValueTransformer.IDENTITY, t.forResource(GroupResource.of("", "configmaps")));
    }

    @Test
    void wildcardsCoverTheirGroupsAfterTheResourcesNamed() throws IOException {
        ResourceTransformers t = load(config("""
                  - resources: [secrets]
                    providers: [{secretbox: {keys: [{name: k, secret: %s}]}}]
                  - resources: ["*.apps"]
                    providers: [{aescbc: {keys: [{name: apps, secret: %s}]}}]
                  - resources: ["*.*"]
                    providers: [{aesgcm: {keys: [{name: all, secret: %s}]}}]
                """.formatted(KEY32, KEY32, KEY32)));
        assertEquals("k8s:enc:secretbox:v1:k:", prefix(t, SECRETS, 23));
        assertEquals("k8s:enc:aescbc:v1:apps:", prefix(t, GroupResource.of("apps", "deployments"), 23));
        assertEquals("k8s:enc:aesgcm:v1:all:", prefix(t, GroupResource.of("", "configmaps"), 22));
        assertEquals("k8s:enc:aesgcm:v1:all:", prefix(t, GroupResource.of("example.com", "widgets"), 22));
    }

    @Test
    void theEventsOfEventsK8sIoAreTheCoreEvents() throws IOException {
        ResourceTransformers t = load(config("""
                  - resources: [events]
                    providers: [{aescbc: {keys: [{name: k, secret: %s}]}}]
                """.formatted(KEY32)));
        assertEquals("k8s:enc:aescbc:v1:k:", prefix(t, GroupResource.of("events.k8s.io", "events"), 20));
    }

    private static String prefix(ResourceTransformers t, GroupResource gr, int length) {
        byte[] out = t.forResource(gr).transformToStorage("{}".getBytes(StandardCharsets.UTF_8), AD);
        return new String(out, 0, length, StandardCharsets.ISO_8859_1);
    }

    @Test
    void refusesWithKubesMessages() {
        assertEquals("error while parsing file: resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "
                + "\"REDACTED\": secret is not of the expected length, got 10, expected one of [16 24 32]",
                error(config("  - resources: [secrets]\n    providers: [{aescbc: {keys: [{name: k, secret: "
                        + Base64.getEncoder().encodeToString(new byte[10]) + "}]}}]\n")));
        assertEquals("error while parsing file: resources[0].providers[0].secretbox.keys[0].secret: Invalid value: "
                + "\"REDACTED\": secret is not of the expected length, got 16, expected one of [32]",
                error(config("  - resources: [secrets]\n    providers: [{secretbox: {keys: [{name: k, secret: " + KEY16
                        + "}]}}]\n")));
        assertEquals("error while parsing file: [resources[0].providers[0].aesgcm.keys[0].name: Required value: name is "
                + "a mandatory field for a key, resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: "
                + "\"REDACTED\": secrets must be base64 encoded]",
                error(config("  - resources: [secrets]\n    providers: [{aesgcm: {keys: [{secret: '!!'}]}}]\n")));
        assertEquals("error while parsing file: resources[0].resources: Invalid value: []string{\"secrets\", \"*.\"}: "
                + "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as "
                + "they will be masked",
                error(config("  - resources: [secrets, '*.']\n    providers: [{identity: {}}]\n")));
        assertEquals("error while parsing file: resources[0].resources[0]: Invalid value: \"*\": use '*.' to encrypt all "
                + "the resources from core API group or *.* to encrypt all resources",
                error(config("  - resources: ['*']\n    providers: [{identity: {}}]\n")));
        assertEquals("error while parsing file: resources[0].providers[0]: Invalid value: more than one provider "
                + "specified in a single element, should split into different list elements",
                error(config("  - resources: [secrets]\n    providers: [{identity: {}, aescbc: {keys: [{name: k, secret: "
                        + KEY32 + "}]}}]\n")));
        assertEquals("error while parsing file: resources[0].providers: Required value: at least one "
                + "resources[0].providers is required", error(config("  - resources: [secrets]\n")));
        assertEquals("error while building transformers: resource \"secrets\" is masked by earlier rule \"*.\"",
                error(config("  - resources: ['*.']\n    providers: [{identity: {}}]\n"
                        + "  - resources: [secrets]\n    providers: [{identity: {}}]\n")));
    }

    @Test
    void refusesWhatItCannotDecode() {
        assertTrue(error(config("  - resources: [secrets]\n    providers: [{aescbcc: {}}]\n"))
                .endsWith("strict decoding error: unknown field \"resources[0].providers[0].aescbcc\""));
        assertTrue(error("apiVersion: apiserver.config.k8s.io/v1beta1\nkind: EncryptionConfiguration\n")
                .endsWith("no kind \"EncryptionConfiguration\" is registered for version \"apiserver.config.k8s.io/v1beta1\""));
        assertTrue(error("").endsWith("encryption provider configuration file \"" + dir.resolve("encryption.yaml")
                + "\" is empty"));
        String kms = error(config("  - resources: [secrets]\n    providers: [{kms: {apiVersion: v2, name: vault, "
                + "endpoint: 'unix:///kms.sock'}}]\n"));
        assertEquals("error while building transformers: could not configure KMS plugin \"vault\": the kms provider is "
                + "not supported by Kubelix; use aescbc, aesgcm or secretbox", kms);
    }

    @Test
    void aMissingFileIsKubesError() {
        Path missing = dir.resolve("none.yaml");
        assertEquals("error while parsing file: error while loading file: error reading encryption provider "
                        + "configuration file \"" + missing + "\": open " + missing + ": no such file or directory",
                assertThrows(IllegalArgumentException.class,
                        () -> ResourceTransformers.load(missing, EncryptionConfigReader.yamlMapper())).getMessage());
    }
}
