package io.kubelix.runtime.registry;

import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;

import java.util.function.Consumer;

/** Admission plugins for tests, each a name and what it does with the attributes it is given. */
final class TestAdmissionPlugins {
    private TestAdmissionPlugins() {
    }

    static MutatingAdmissionPlugin mutating(String name, Consumer<AdmissionAttributes> admit) {
        return new MutatingAdmissionPlugin() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void admit(AdmissionAttributes a) {
                admit.accept(a);
            }
        };
    }

    static ValidatingAdmissionPlugin validating(String name, Consumer<AdmissionAttributes> validate) {
        return new ValidatingAdmissionPlugin() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void validate(AdmissionAttributes a) {
                validate.accept(a);
            }
        };
    }
}
