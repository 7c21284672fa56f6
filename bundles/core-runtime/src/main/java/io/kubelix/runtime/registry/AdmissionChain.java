package io.kubelix.runtime.registry;

import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.AdmissionPlugin;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.runtime.metrics.AdmissionMetrics;
import io.kubelix.runtime.metrics.ServerMetrics;
import io.kubelix.runtime.server.GenericAPIServer;
import io.kubelix.runtime.server.Lifecycle;
import io.kubelix.runtime.server.PluginSwaps;
import io.kubelix.runtime.server.RankedServices;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * The admission chain: every mutating plugin, then every validating plugin, each in kube's order
 * ({@link AdmissionOrder}; {@code service.ranking} among plugins of the same place). Plugins are whiteboard services; a write sees the set installed
 * when its step runs, and a plugin being updated keeps its place until its new revision arrives.
 */
@Component(service = AdmissionChain.class)
public final class AdmissionChain {
    private static final Logger LOG = LoggerFactory.getLogger(AdmissionChain.class);

    private final RankedServices<MutatingAdmissionPlugin> mutating;
    private final RankedServices<ValidatingAdmissionPlugin> validating;
    private final Predicate<String> enabled;
    private final AtomicReference<Ordered<MutatingAdmissionPlugin>> orderedMutating = new AtomicReference<>();
    private final AtomicReference<Ordered<ValidatingAdmissionPlugin>> orderedValidating = new AtomicReference<>();
    private final AdmissionMetrics metrics;

    /**
     * A plugin being updated keeps admitting until its new revision takes over. Which plugins run
     * is read from the framework properties {@code bin/kubelix} sets from
     * {@code --enable-admission-plugins} and {@code --disable-admission-plugins}.
     */
    @Activate
    public AdmissionChain(@Reference PluginSwaps swaps, BundleContext context, @Reference ServerMetrics metrics) {
        this(swaps, enabled(context), metrics.admission());
    }

    /** For tests: a chain whose plugins leave at once, with kube's default plugins enabled. */
    public AdmissionChain() {
        this(PluginSwaps.none(), AdmissionOrder.enabled("", ""), null);
    }

    /** @param metrics where the steps and plugins are timed, or null for nowhere */
    AdmissionChain(PluginSwaps swaps, Predicate<String> enabled, AdmissionMetrics metrics) {
        mutating = new RankedServices<>(swaps);
        validating = new RankedServices<>(swaps);
        this.enabled = enabled;
        this.metrics = metrics;
    }

    private static Predicate<String> enabled(BundleContext context) {
        try {
            return AdmissionOrder.enabled(context.getProperty("kubelix.enable-admission-plugins"),
                    context.getProperty("kubelix.disable-admission-plugins"));
        } catch (IllegalArgumentException e) {
            GenericAPIServer.failed(context, e);
            throw e;
        }
    }

    /**
     * Runs the mutating plugins, which may change {@code attributes.object()} in place; when one of
     * them asks for it (a webhook with {@code reinvocationPolicy: IfNeeded} whose object changed
     * after it ran), runs them all once more, as kube's reinvoker does.
     */
    public void admit(AdmissionAttributes attributes) {
        List<MutatingAdmissionPlugin> plugins = ordered(mutating.get(), orderedMutating);
        long begin = System.nanoTime();
        boolean rejected = true;
        try {
            admitOnce(plugins, attributes);
            if (attributes.reinvocation().shouldReinvoke()) {
                attributes.reinvocation().setIsReinvoke();
                admitOnce(plugins, attributes);
            }
            rejected = false;
        } finally {
            if (metrics != null) {
                metrics.step(AdmissionMetrics.ADMIT, attributes.operation().name(), rejected, System.nanoTime() - begin);
            }
        }
    }

    private void admitOnce(List<MutatingAdmissionPlugin> plugins, AdmissionAttributes attributes) {
        for (MutatingAdmissionPlugin p : plugins) {
            if (p.handles(attributes.operation())) {
                long begin = System.nanoTime();
                boolean rejected = true;
                try {
                    p.admit(attributes);
                    rejected = false;
                } finally {
                    pluginTimed(p, AdmissionMetrics.ADMIT, attributes, rejected, begin);
                }
            }
        }
    }

    /** Runs the validating plugins; the first that throws rejects the request. */
    public void validate(AdmissionAttributes attributes) {
        long begin = System.nanoTime();
        boolean rejected = true;
        try {
            for (ValidatingAdmissionPlugin p : ordered(validating.get(), orderedValidating)) {
                if (p.handles(attributes.operation())) {
                    long pluginBegin = System.nanoTime();
                    boolean pluginRejected = true;
                    try {
                        p.validate(attributes);
                        pluginRejected = false;
                    } finally {
                        pluginTimed(p, AdmissionMetrics.VALIDATE, attributes, pluginRejected, pluginBegin);
                    }
                }
            }
            rejected = false;
        } finally {
            if (metrics != null) {
                metrics.step(AdmissionMetrics.VALIDATE, attributes.operation().name(), rejected, System.nanoTime() - begin);
            }
        }
    }

    /**
     * Records one plugin's part of a step under the plugin's name, as kube's controller metric. The
     * callers time the plugin inline rather than through a callback, which would allocate a lambda
     * per plugin per write.
     */
    private void pluginTimed(AdmissionPlugin plugin, String type, AdmissionAttributes attributes, boolean rejected, long begin) {
        if (metrics != null) {
            metrics.controller(plugin.name(), type, attributes.operation().name(), rejected, System.nanoTime() - begin);
        }
    }

    /** The enabled plugins in kube's order, sorted once per set of plugins. */
    private <T extends AdmissionPlugin> List<T> ordered(List<T> ranked, AtomicReference<Ordered<T>> cache) {
        Ordered<T> o = cache.get();
        if (o == null || o.ranked() != ranked) {
            o = new Ordered<>(ranked, AdmissionOrder.sorted(ranked.stream().filter(p -> enabled.test(p.name())).toList()));
            cache.set(o);
        }
        return o.sorted();
    }

    private record Ordered<T>(List<T> ranked, List<T> sorted) {
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addMutating(MutatingAdmissionPlugin p, Map<String, Object> props) {
        mutating.add(p, props);
        LOG.info("admission plugin added: {} (mutating){}", p.name(), enabled.test(p.name()) ? ""
                : ", not run: not in enable-admission-plugins, or in disable-admission-plugins");
    }

    void removeMutating(MutatingAdmissionPlugin p, Map<String, Object> props) {
        boolean outgoing = mutating.remove(p, props);
        Lifecycle.gone(LOG, "admission plugin {}: {} (mutating)", outgoing ? "being updated" : "removed", p.name());
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    void addValidating(ValidatingAdmissionPlugin p, Map<String, Object> props) {
        validating.add(p, props);
        LOG.info("admission plugin added: {} (validating){}", p.name(), enabled.test(p.name()) ? ""
                : ", not run: not in enable-admission-plugins, or in disable-admission-plugins");
    }

    void removeValidating(ValidatingAdmissionPlugin p, Map<String, Object> props) {
        boolean outgoing = validating.remove(p, props);
        Lifecycle.gone(LOG, "admission plugin {}: {} (validating)", outgoing ? "being updated" : "removed", p.name());
    }
}
