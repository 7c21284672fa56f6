package io.kubelix.api.admission;

/** What every admission plugin has: a name (as {@code --enable-admission-plugins} spells it). */
public interface AdmissionPlugin {
    String name();

    /** Whether this plugin wants to see the operation at all. */
    default boolean handles(Operation operation) {
        return true;
    }
}
