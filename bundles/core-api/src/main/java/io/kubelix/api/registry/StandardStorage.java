package io.kubelix.api.registry;

/** rest.StandardStorage: every verb; what the generic Store offers. */
public interface StandardStorage extends Getter, Lister, Creater, Updater, GracefulDeleter, CollectionDeleter, Watcher {
}
