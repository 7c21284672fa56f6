package io.kubelix.runtime.registry;

import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;

import java.util.Map;

/** Test helper: adds plugins to an AdmissionChain from other packages, as DS would bind them. */
public final class AdmissionChains {
    private AdmissionChains() {
    }

    public static void add(AdmissionChain chain, MutatingAdmissionPlugin plugin) {
        chain.addMutating(plugin, Map.of("service.id", (long) System.identityHashCode(plugin)));
    }

    public static void add(AdmissionChain chain, ValidatingAdmissionPlugin plugin) {
        chain.addValidating(plugin, Map.of("service.id", (long) System.identityHashCode(plugin)));
    }
}
