package io.kubelix.runtime.storage.encryptionconfig;

import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.ValueTransformer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A reloaded configuration takes effect in the transformers already handed out; a bad one is ignored. */
class DynamicTransformersTest {
    private static final GroupResource SECRETS = GroupResource.of("", "secrets");
    private static final byte[] AD = "/secrets/default/s".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private static String config(String key) {
        return """
                apiVersion: apiserver.config.k8s.io/v1
                kind: EncryptionConfiguration
                resources:
                  - resources: [secrets]
                    providers:
                      - aescbc: {keys: [{name: %s, secret: AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=}]}
                      - identity: {}
                """.formatted(key);
    }

    private static String written(ValueTransformer t) {
        return new String(t.transformToStorage("{}".getBytes(StandardCharsets.UTF_8), AD), 0, 23,
                StandardCharsets.ISO_8859_1);
    }

    @Test
    void followsTheFileAndKeepsTheLastGoodOne() throws IOException {
        Path file = dir.resolve("enc.yaml");
        Files.writeString(file, config("key1"));
        try (DynamicTransformers dynamic = DynamicTransformers.load(file, null)) {
            ValueTransformer secrets = dynamic.forResource(SECRETS);
            assertEquals("k8s:enc:aescbc:v1:key1:", written(secrets));

            Files.writeString(file, config("key2"));
            dynamic.check();
            assertEquals("k8s:enc:aescbc:v1:key2:", written(secrets));

            Files.writeString(file, "kind: nonsense");
            dynamic.check();
            assertEquals("k8s:enc:aescbc:v1:key2:", written(secrets));
            Files.delete(file);
            dynamic.check();
            assertEquals("k8s:enc:aescbc:v1:key2:", written(secrets));
        }
    }

    @Test
    void withoutAConfigurationNothingIsEncrypted() {
        assertSame(ValueTransformer.IDENTITY, DynamicTransformers.none().forResource(SECRETS));
        assertThrows(IllegalStateException.class, () -> ValueTransformer.IDENTITY.transformFromStorage(
                "k8s:enc:aescbc:v1:key1:xyz".getBytes(StandardCharsets.UTF_8), AD));
    }
}
