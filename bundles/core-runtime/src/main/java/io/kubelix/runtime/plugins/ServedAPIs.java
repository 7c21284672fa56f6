package io.kubelix.runtime.plugins;

import java.util.List;

/**
 * A server-chain link's view of the RESTStorageProviders it installed (core-runtime internal;
 * the core API server registers one). Read by the plugin status; never used to route.
 */
public interface ServedAPIs {
    /**
     * Every resource of every installed provider, the served ones and the shadowed ones, in the
     * order the conflict resolution saw them: highest ranking (then oldest service) first.
     */
    List<ProvidedResource> providedResources();
}
