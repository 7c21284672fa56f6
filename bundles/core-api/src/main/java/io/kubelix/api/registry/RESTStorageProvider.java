package io.kubelix.api.registry;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * What a resource bundle registers (kube-apiserver's RESTStorageProvider). When the service
 * appears, core-runtime calls {@link #newRESTStorage} and installs the routes and discovery of
 * every resource it returns; when it goes, they are removed and each storage is
 * {@linkplain RESTStorage#destroy() destroyed}. Two providers serving the same group, version and
 * resource are resolved by {@code service.ranking}; the loser is logged and reported.
 */
@ConsumerType
public interface RESTStorageProvider {

    /** The API group served; empty for the core group. */
    String groupName();

    /** Builds the group's storages, usually with {@link RESTOptionsGetter#newStore}. */
    APIGroupInfo newRESTStorage(RESTOptionsGetter restOptionsGetter);
}
