package io.kubelix.storage.etcd;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/** Builders shared by the backend-specific tests. */
final class EtcdTestSupport {
    static final StorageConfig CONFIGMAPS = new StorageConfig(GroupResource.of("", "configmaps"), "/configmaps");

    private EtcdTestSupport() {
    }

    static EtcdStorageBackend backend(String endpoint, String prefix, Map<String, String> extra) {
        Map<String, Object> config = new HashMap<>(Map.of("etcd-servers", endpoint, "etcd-prefix", prefix,
                "etcd-compaction-interval", "0"));
        config.putAll(extra);
        return new EtcdStorageBackend(EtcdSettings.read(config, name -> null), Duration.ofMillis(500), null);
    }

    static EtcdStorageBackend backend(String endpoint, String prefix) {
        return backend(endpoint, prefix, Map.of());
    }

    static ObjectNode configMap(String name, String value) {
        ObjectNode obj = JsonNodeFactory.instance.objectNode();
        obj.put("apiVersion", "v1").put("kind", "ConfigMap");
        obj.putObject("metadata").put("name", name).put("namespace", "default")
                .put("uid", UUID.randomUUID().toString());
        obj.putObject("data").put("value", value);
        return obj;
    }

    static String key(String name) {
        return "/configmaps/default/" + name;
    }

    static long rv(ObjectNode obj) {
        return Long.parseLong(obj.path("metadata").path("resourceVersion").asText());
    }

    static String value(ObjectNode obj) {
        return obj.path("data").path("value").asText();
    }

    /** The next event that is not a BOOKMARK, or an AssertionError after {@code timeout}. */
    static WatchEvent next(Watch w, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            WatchEvent e = w.next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            if (e != null && e.type() != WatchEvent.Type.BOOKMARK) {
                return e;
            }
            if (e == null && w.done()) {
                break;
            }
        }
        throw new AssertionError("no watch event within " + timeout);
    }
}
