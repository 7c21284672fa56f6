package io.kubelix.storage.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageException;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.ValueTransformer;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The resource's {@link ValueTransformer} (encryption at rest): every value a backend stores is the
 * transformer's output and every value it reads goes back through it, authenticated by the key it
 * is stored under, and a value the transformer calls stale is written again by an update that
 * changes nothing (how rewriting every object moves it to a new key).
 */
public abstract class TransformerConformance extends WatchConformance {

    /**
     * Stores values reversed behind {@code test:<generation>:}, and reads only values with that
     * prefix: whatever the backend hands back must be what it was given. Values of an older
     * generation are stale.
     */
    static final class Reversing implements ValueTransformer {
        volatile int generation = 1;
        volatile boolean failWrites;
        final List<String> authenticated = new CopyOnWriteArrayList<>();

        @Override
        public Read transformFromStorage(byte[] stored, byte[] authenticatedData) {
            authenticated.add(new String(authenticatedData, StandardCharsets.UTF_8));
            String s = new String(stored, StandardCharsets.ISO_8859_1);
            if (!s.startsWith("test:")) {
                throw new IllegalStateException("not transformed: " + s);
            }
            int colon = s.indexOf(':', 5);
            int storedGeneration = Integer.parseInt(s.substring(5, colon));
            return new Read(reverse(Arrays.copyOfRange(stored, colon + 1, stored.length)), storedGeneration != generation);
        }

        @Override
        public byte[] transformToStorage(byte[] data, byte[] authenticatedData) {
            if (failWrites) {
                throw new IllegalStateException("no key to write with");
            }
            authenticated.add(new String(authenticatedData, StandardCharsets.UTF_8));
            byte[] prefix = ("test:" + generation + ":").getBytes(StandardCharsets.ISO_8859_1);
            byte[] out = Arrays.copyOf(prefix, prefix.length + data.length);
            System.arraycopy(reverse(data), 0, out, prefix.length, data.length);
            return out;
        }

        private static byte[] reverse(byte[] data) {
            byte[] out = new byte[data.length];
            for (int i = 0; i < data.length; i++) {
                out[i] = data[data.length - 1 - i];
            }
            return out;
        }
    }

    private final Reversing transformer = new Reversing();

    private StorageInterface secrets() {
        return backend.forResource(new StorageConfig(SECRETS, "/secrets", transformer));
    }

    @Test
    void valuesPassThroughTheTransformer() throws Exception {
        StorageInterface secrets = secrets();
        Watch watch = secrets.watch("/secrets",
                ListOptions.recursiveAll().withResourceVersion(Long.toString(secrets.currentResourceVersion())));
        try {
            ObjectNode created = secrets.create("/secrets/default/a", configMap("default", "a", "blue"));
            assertEquals("blue", created.path("data").path("color").asText());
            assertEquals("blue", secrets.get("/secrets/default/a", GetOptions.DEFAULT).path("data").path("color").asText());
            ObjectNode updated = secrets.guaranteedUpdate("/secrets/default/a", false, Preconditions.NONE,
                    (obj, rv) -> withColor(obj, "green"));
            assertEquals("green", updated.path("data").path("color").asText());
            assertEquals("green", secrets.getList("/secrets", ListOptions.recursiveAll()).items().get(0)
                    .path("data").path("color").asText());
            WatchEvent added = next(watch);
            assertEquals(WatchEvent.Type.ADDED, added.type());
            assertEquals("blue", added.object().path("data").path("color").asText());
            assertTrue(transformer.authenticated.stream().allMatch(k -> k.endsWith("/secrets/default/a")),
                    "authenticated by the key it is stored under: " + transformer.authenticated);
        } finally {
            watch.close();
        }
    }

    @Test
    void aStaleValueIsWrittenAgainByAnUnchangedUpdate() {
        StorageInterface secrets = secrets();
        long created = rv(secrets.create("/secrets/default/a", configMap("default", "a", "blue")));
        long unchanged = rv(secrets.guaranteedUpdate("/secrets/default/a", false, Preconditions.NONE, (obj, rv) -> obj));
        assertEquals(created, unchanged, "nothing to write");

        transformer.generation = 2;
        long rewritten = rv(secrets.guaranteedUpdate("/secrets/default/a", false, Preconditions.NONE, (obj, rv) -> obj));
        assertTrue(rewritten > created, "a stale value is written again");
        long again = rv(secrets.guaranteedUpdate("/secrets/default/a", false, Preconditions.NONE, (obj, rv) -> obj));
        assertEquals(rewritten, again, "once rewritten it is current");
        assertEquals("blue", secrets.get("/secrets/default/a", GetOptions.DEFAULT).path("data").path("color").asText());
    }

    @Test
    void aValueThatCannotBeTransformedIsAnInternalError() {
        transformer.failWrites = true;
        StorageException e = assertThrows(StorageException.class,
                () -> secrets().create("/secrets/default/a", configMap("default", "a", "blue")));
        assertEquals(StorageException.Code.INTERNAL, e.code());
        assertTrue(e.getMessage().contains("no key to write with"), e.getMessage());
    }
}
