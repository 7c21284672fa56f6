package io.kubelix.api.server;

import io.kubelix.api.schema.GroupVersion;
import org.osgi.annotation.versioning.ProviderType;

import java.util.List;

/**
 * The group versions the core API serves now, from every installed RESTStorageProvider and every
 * established CRD (what kube's genericapiserver lists as its {@code ListedPaths}), for the
 * aggregator's autoregistration of local APIServices. Registered by core-runtime.
 */
@ProviderType
public interface ServedGroupVersions {

    /** The group versions served now; the core group is {@code ""}. */
    List<GroupVersion> groupVersions();

    /**
     * Calls {@code listener} (on a thread of the runtime's) whenever the served group versions may
     * have changed.
     *
     * @return what unregisters the listener
     */
    Runnable onChange(Runnable listener);
}
