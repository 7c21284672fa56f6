package io.kubelix.api.admission;

import org.osgi.annotation.versioning.ConsumerType;

/** What every admission plugin has: a name (as {@code --enable-admission-plugins} spells it). */
@ConsumerType
public interface AdmissionPlugin {
    String name();

    /** Whether this plugin wants to see the operation at all. */
    default boolean handles(Operation operation) {
        return true;
    }
}
