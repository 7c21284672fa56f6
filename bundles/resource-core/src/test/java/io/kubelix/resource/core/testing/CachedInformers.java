package io.kubelix.resource.core.testing;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.GenericLister;
import io.kubelix.api.informer.GenericNamespaceLister;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.schema.GroupVersionResource;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Informers over caches a test fills, for a controller's sync: only listers are served (a
 * controller's queue is null and its handlers are never registered), objects keyed as informers
 * key them ({@code name} or {@code namespace/name}).
 */
public final class CachedInformers {
    private final Map<String, Map<String, ObjectNode>> caches = new TreeMap<>();

    public final SharedInformerFactory factory = (SharedInformerFactory) Proxy.newProxyInstance(
            CachedInformers.class.getClassLoader(), new Class<?>[] {SharedInformerFactory.class}, (proxy, method, args) ->
                    switch (method.getName()) {
                        case "forResource" -> informer((GroupVersionResource) args[0]);
                        case "newRateLimitingQueue" -> null;
                        default -> throw new UnsupportedOperationException(method.getName());
                    });

    /** Puts an object in the resource's cache under its informer key. */
    public void put(GroupVersionResource r, String key, ObjectNode obj) {
        cache(r).put(key, obj);
    }

    public void remove(GroupVersionResource r, String key) {
        cache(r).remove(key);
    }

    private Map<String, ObjectNode> cache(GroupVersionResource r) {
        return caches.computeIfAbsent(r.group() + "/" + r.resource(), k -> new TreeMap<>());
    }

    private SharedIndexInformer informer(GroupVersionResource r) {
        Map<String, ObjectNode> cache = cache(r);
        GenericLister lister = new GenericLister() {
            @Override
            public List<ObjectNode> list() {
                return List.copyOf(cache.values());
            }

            @Override
            public Optional<ObjectNode> get(String name) {
                return Optional.ofNullable(cache.get(name));
            }

            @Override
            public GenericNamespaceLister byNamespace(String namespace) {
                return new GenericNamespaceLister() {
                    @Override
                    public List<ObjectNode> list() {
                        return cache.entrySet().stream().filter(e -> e.getKey().startsWith(namespace + "/"))
                                .map(Map.Entry::getValue).toList();
                    }

                    @Override
                    public Optional<ObjectNode> get(String name) {
                        return Optional.ofNullable(cache.get(namespace + "/" + name));
                    }
                };
            }
        };
        return (SharedIndexInformer) Proxy.newProxyInstance(CachedInformers.class.getClassLoader(),
                new Class<?>[] {SharedIndexInformer.class}, (proxy, method, args) -> {
                    if (method.getName().equals("lister")) {
                        return lister;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
