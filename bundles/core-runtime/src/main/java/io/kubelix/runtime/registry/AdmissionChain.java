package io.kubelix.runtime.registry;

import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.runtime.server.RankedServices;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;

/**
 * The admission chain: every mutating plugin, then every validating plugin, each in
 * {@code service.ranking} order. Plugins are whiteboard services; a write sees the set installed
 * when its step runs.
 */
@Component(service = AdmissionChain.class)
public final class AdmissionChain {
    private static final Logger LOG = LoggerFactory.getLogger(AdmissionChain.class);

    private final RankedServices<MutatingAdmissionPlugin> mutating = new RankedServices<>();
    private final RankedServices<ValidatingAdmissionPlugin> validating = new RankedServices<>();

    /** Runs the mutating plugins, which may change {@code attributes.object()} in place. */
    public void admit(AdmissionAttributes attributes) {
        for (MutatingAdmissionPlugin p : mutating.get()) {
            if (p.handles(attributes.operation())) {
                p.admit(attributes);
            }
        }
    }

    /** Runs the validating plugins; the first that throws rejects the request. */
    public void validate(AdmissionAttributes attributes) {
        for (ValidatingAdmissionPlugin p : validating.get()) {
            if (p.handles(attributes.operation())) {
                p.validate(attributes);
            }
        }
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addMutating(MutatingAdmissionPlugin p, Map<String, Object> props) {
        mutating.add(p, props);
        LOG.info("admission plugin added: {} (mutating)", p.name());
    }

    void removeMutating(MutatingAdmissionPlugin p) {
        mutating.remove(p);
        LOG.info("admission plugin removed: {} (mutating)", p.name());
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addValidating(ValidatingAdmissionPlugin p, Map<String, Object> props) {
        validating.add(p, props);
        LOG.info("admission plugin added: {} (validating)", p.name());
    }

    void removeValidating(ValidatingAdmissionPlugin p) {
        validating.remove(p);
        LOG.info("admission plugin removed: {} (validating)", p.name());
    }
}
