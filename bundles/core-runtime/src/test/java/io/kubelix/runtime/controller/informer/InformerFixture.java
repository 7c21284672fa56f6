package io.kubelix.runtime.controller.informer;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.ResourceEventHandler;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.runtime.controller.ServedStores;
import io.kubelix.runtime.registry.GenericStore;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Configmaps in a real memory backend behind a real watch cache ({@link ServedStores}), served by
 * generic Stores that a test can swap (a plugin update) or take away, and a handler that records
 * what it is told.
 */
final class InformerFixture implements AutoCloseable {
    static final GroupVersionResource CONFIGMAPS_V1 = new GroupVersionResource("", "v1", "configmaps");
    /** How long a test waits for something it expects; never a measure of speed. */
    static final Duration PATIENCE = Duration.ofSeconds(20);

    final ServedStores served = new ServedStores();
    final InformerFactory factory = new InformerFactory(served);
    /** The Store tests write through; what is served may be another over the same watch cache. */
    private final GenericStore writes = served.serve(CONFIGMAPS_V1, "ConfigMap", true);

    /** A new revision of the plugin's Store, over the same watch cache. */
    GenericStore newStore() {
        return served.newStore(CONFIGMAPS_V1, "ConfigMap", true);
    }

    /** Serves configmaps with {@code storage}, or stops serving them when it is null. */
    void serve(RESTStorage storage) {
        if (storage == null) {
            served.unserve(CONFIGMAPS_V1);
        } else {
            served.serve(CONFIGMAPS_V1, storage);
        }
    }

    GenericStore store() {
        return writes;
    }

    ObjectNode create(String namespace, String name, Map<String, String> labels) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", "v1").put("kind", "ConfigMap");
        ObjectNode meta = o.putObject("metadata").put("name", name).put("namespace", namespace);
        labels.forEach(meta.putObject("labels")::put);
        o.putObject("data").put("k", "v");
        return create(o);
    }

    ObjectNode create(ObjectNode o) {
        return store().create(RequestContext.system(o.path("metadata").path("namespace").asText()), o,
                CreateOptions.DEFAULT);
    }

    ObjectNode update(String namespace, String name, String value) {
        return store().update(RequestContext.system(namespace), name, (ctx, current) -> {
            ObjectNode next = current.deepCopy();
            next.putObject("data").put("k", value);
            return next;
        }, UpdateOptions.DEFAULT).object();
    }

    ObjectNode relabel(String namespace, String name, String app) {
        return store().update(RequestContext.system(namespace), name, (ctx, current) -> {
            ObjectNode next = current.deepCopy();
            ((ObjectNode) next.path("metadata")).putObject("labels").put("app", app);
            return next;
        }, UpdateOptions.DEFAULT).object();
    }

    ObjectNode delete(String namespace, String name) {
        return store().delete(RequestContext.system(namespace), name, DeleteOptions.DEFAULT).object();
    }

    @Override
    public void close() {
        factory.stop();
        served.close();
    }

    static String rv(ObjectNode o) {
        return o.path("metadata").path("resourceVersion").asText();
    }

    /** Records every notification as a line: {@code add default/a 12 initial}, {@code update default/a 12->13}, ... */
    static final class Recorder implements ResourceEventHandler {
        final BlockingQueue<String> events = new LinkedBlockingQueue<>();

        @Override
        public void onAdd(ObjectNode obj, boolean isInInitialList) {
            events.add("add " + Informer.keyOf(obj) + " " + rv(obj) + (isInInitialList ? " initial" : ""));
        }

        @Override
        public void onUpdate(ObjectNode oldObj, ObjectNode newObj) {
            events.add("update " + Informer.keyOf(newObj) + " " + rv(oldObj) + "->" + rv(newObj));
        }

        @Override
        public void onDelete(ObjectNode obj) {
            events.add("delete " + Informer.keyOf(obj) + " " + rv(obj));
        }

        /** The notifications received and not yet taken, without waiting. */
        List<String> drained() {
            List<String> got = new ArrayList<>();
            events.drainTo(got);
            return got;
        }

        /** The next {@code n} notifications; fails when they do not come. */
        List<String> next(int n) throws InterruptedException {
            List<String> got = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                String e = events.poll(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
                if (e == null) {
                    throw new AssertionError("expected " + n + " notifications, got " + got);
                }
                got.add(e);
            }
            return got;
        }
    }
}
