package io.kubelix.api.registry;

import org.osgi.annotation.versioning.ConsumerType;

/** rest.StandardStorage: every verb; what the generic Store offers. */
@ConsumerType
public interface StandardStorage extends Getter, Lister, Creater, Updater, GracefulDeleter, CollectionDeleter, Watcher {
}
