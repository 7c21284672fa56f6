package io.kubelix.runtime.controller;

import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.schema.GroupVersionResource;

import java.util.List;
import java.util.function.Function;

/**
 * The resources the server serves, as its controllers read them (core-runtime internal; the core
 * API server registers one): the storage serving each group, version and resource now, and a word
 * when that changes (a plugin came, went, or was updated). Read-only: routing stays with the server.
 */
public interface ServedResources {

    /**
     * The storage serving a resource, or a subresource path such as {@code namespaces/finalize}, now;
     * null when none serves it.
     */
    RESTStorage storage(GroupVersionResource resource);

    /**
     * Runs {@code call} with the storage serving {@code resource} (null when none does) as a client's
     * request would run: once an update of its plugin has finished, and without letting an update
     * discard the storage's classes while it runs.
     */
    default <T> T call(GroupVersionResource resource, Function<RESTStorage, T> call) {
        return call.apply(storage(resource));
    }

    /** Every resource served now (not subresources). */
    List<GroupVersionResource> resources();

    /**
     * Calls {@code listener} after every change of what is served, and when the storage backend
     * comes or goes, on the thread that made the change; the listener must not block. Returns what
     * removes it.
     */
    Runnable onChange(Runnable listener);

    /**
     * Whether the storage backend is there now, so the served resources can be read; while it is
     * not (the server starts, or its storage plugin is being installed), readers wait for
     * {@link #onChange} instead of failing.
     */
    default boolean storageAvailable() {
        return true;
    }
}
