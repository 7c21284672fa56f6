package io.kubelix.runtime.registry;

import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.runtime.server.PluginSwaps;
import io.kubelix.runtime.server.RankedServices;
import org.osgi.service.component.annotations.Activate;
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
 * when its step runs, and a plugin being updated keeps its place until its new revision arrives.
 */
@Component(service = AdmissionChain.class)
public final class AdmissionChain {
    private static final Logger LOG = LoggerFactory.getLogger(AdmissionChain.class);

    private final RankedServices<MutatingAdmissionPlugin> mutating;
    private final RankedServices<ValidatingAdmissionPlugin> validating;

    /** A plugin being updated keeps admitting until its new revision takes over. */
    @Activate
    public AdmissionChain(@Reference PluginSwaps swaps) {
        mutating = new RankedServices<>(swaps);
        validating = new RankedServices<>(swaps);
    }

    /** For tests: a chain whose plugins leave at once. */
    public AdmissionChain() {
        this(PluginSwaps.none());
    }

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

    void removeMutating(MutatingAdmissionPlugin p, Map<String, Object> props) {
        boolean outgoing = mutating.remove(p, props);
        LOG.info("admission plugin {}: {} (mutating)", outgoing ? "being updated" : "removed", p.name());
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addValidating(ValidatingAdmissionPlugin p, Map<String, Object> props) {
        validating.add(p, props);
        LOG.info("admission plugin added: {} (validating)", p.name());
    }

    void removeValidating(ValidatingAdmissionPlugin p, Map<String, Object> props) {
        boolean outgoing = validating.remove(p, props);
        LOG.info("admission plugin {}: {} (validating)", outgoing ? "being updated" : "removed", p.name());
    }
}
