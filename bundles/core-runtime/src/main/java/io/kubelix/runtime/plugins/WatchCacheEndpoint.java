package io.kubelix.runtime.plugins;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import io.kubelix.runtime.storage.StorageFactory;
import io.kubelix.runtime.storage.cacher.CacherStats;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import java.util.Map;

/**
 * {@code GET /kubelix/watchcache}: each resource's watch cache counters (the watchers open now,
 * those started and terminated for being slow, events, reads, its revision and window), by key
 * prefix, and the watchers open in all. What kube publishes as {@code apiserver_watch_cache_*} and
 * {@code apiserver_registered_watchers}, read by operators and tests that must see a watch released.
 * Authenticated and authorized like every non-resource request.
 */
@Component(service = KubelixEndpoint.class)
public final class WatchCacheEndpoint implements KubelixEndpoint {
    static final String PATH = ROOT + "/watchcache";

    private final StorageFactory storage;

    @Activate
    public WatchCacheEndpoint(@Reference StorageFactory storage) {
        this.storage = storage;
    }

    @Override
    public boolean serve(Request request, Response response, Callback callback, String path) {
        if (!KubelixEndpoint.isReadOf(request, path, PATH)) {
            return false;
        }
        ObjectNode doc = JsonNodeFactory.instance.objectNode();
        ObjectNode resources = doc.putObject("resources");
        long watchers = 0;
        for (Map.Entry<String, CacherStats> e : storage.watchCacheStats().entrySet()) {
            CacherStats s = e.getValue();
            watchers += s.watchers();
            resources.putObject(e.getKey()).put("watchers", s.watchers()).put("watchersStarted", s.watchersStarted())
                    .put("slowWatchersTerminated", s.slowWatchersTerminated()).put("events", s.events())
                    .put("readsFromCache", s.readsFromCache()).put("readsFromStorage", s.readsFromStorage())
                    .put("relists", s.relists()).put("resourceVersion", s.resourceVersion())
                    .put("windowCapacity", s.windowCapacity());
        }
        doc.put("watchers", watchers);
        Responses.writeObject(request, response, callback, 200, doc);
        return true;
    }
}
