package io.kubelix.runtime.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.Creater;
import io.kubelix.api.registry.Getter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionResource;

import java.util.function.UnaryOperator;

/**
 * A controller's writes, through the storage serving each resource now, as the server itself
 * ({@link RequestContext#system}): the same strategies, admission and watch events as a client's
 * request, without HTTP.
 */
public final class ServedObjects {
    private final ServedResources served;

    public ServedObjects(ServedResources served) {
        this.served = served;
    }

    /** Whether a storage serves the resource now. */
    public boolean served(GroupVersionResource resource) {
        return served.storage(resource) != null;
    }

    /** The object read from storage (not a cache). @throws StatusException 404 when it does not exist */
    public ObjectNode get(GroupVersionResource resource, String namespace, String name) {
        return served.call(resource, s -> verb(resource, s, Getter.class).get(RequestContext.system(namespace), name, ""));
    }

    public ObjectNode create(GroupVersionResource resource, ObjectNode obj) {
        String namespace = obj.path("metadata").path("namespace").asText("");
        return served.call(resource, s -> verb(resource, s, Creater.class)
                .create(RequestContext.system(namespace), obj, CreateOptions.DEFAULT));
    }

    /** Replaces the object with what {@code change} makes of the current one (retried on conflict by the Store). */
    public ObjectNode update(GroupVersionResource resource, String namespace, String name, UnaryOperator<ObjectNode> change) {
        return served.call(resource, s -> verb(resource, s, Updater.class).update(RequestContext.system(namespace), name,
                (ctx, current) -> change.apply(current.deepCopy()), UpdateOptions.DEFAULT).object());
    }

    private static <S> S verb(GroupVersionResource resource, RESTStorage storage, Class<S> verb) {
        if (!verb.isInstance(storage)) {
            throw StatusException.serviceUnavailable(describe(resource) + " is not served"
                    + (storage == null ? "" : " with the verb " + verb.getSimpleName().toLowerCase(java.util.Locale.ROOT)));
        }
        return verb.cast(storage);
    }

    public static String describe(GroupVersionResource r) {
        return (r.group().isEmpty() ? "" : r.group() + "/") + r.version() + "/" + r.resource();
    }
}
