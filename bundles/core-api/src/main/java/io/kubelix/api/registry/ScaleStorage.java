package io.kubelix.api.registry;

import org.osgi.annotation.versioning.ProviderType;

/**
 * The storage of a {@code <resource>/scale} subresource (kube's ScaleREST): get, update and patch
 * of an {@code autoscaling/v1 Scale} that reads and writes the parent's replicas. Built by
 * {@link RESTOptionsGetter#newScaleStore}.
 */
@ProviderType
public interface ScaleStorage extends Getter, Updater, GroupVersionKindProvider {
}
