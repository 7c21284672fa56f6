package io.kubelix.api.informer;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * What a controller does with one key taken from its queue (client-go's {@code syncHandler},
 * controller-runtime's {@code Reconciler}): bring the objects the key names to what they should
 * be, reading them through listers. A call that returns has succeeded (the key's failures are
 * forgotten); one that throws is retried after the queue's rate-limited delay. One key is never
 * reconciled by two workers at once.
 */
@ConsumerType
@FunctionalInterface
public interface Reconciler<T> {
    void reconcile(T key) throws Exception;
}
