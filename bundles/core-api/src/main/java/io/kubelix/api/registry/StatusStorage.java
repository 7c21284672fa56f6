package io.kubelix.api.registry;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The storage of a {@code <resource>/status} subresource (kube's StatusREST): get, update and
 * patch of the parent's objects, where only {@code status} changes. Built by
 * {@link RESTOptionsGetter#newStatusStore}.
 */
@ProviderType
public interface StatusStorage extends Getter, Updater {
}
