package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.support.admission.config.AdmissionConfigurationFile;
import io.kubelix.support.quantity.Quantity;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The ResourceQuota admission plugin (plugin/pkg/admission/resourcequota): a create (or a claim's
 * update, or a pod's resize through {@code pods/resize}, charged what it adds) in a namespace whose quotas limit what the object uses (its count, a pod's cpu and memory, a claim's storage:
 * see {@link QuotaEvaluator}), within the quota's scopes, is refused with kube's 403
 * ({@code exceeded quota: q, requested: requests.cpu=500m, used: requests.cpu=1, limited:
 * requests.cpu=1}) when it would pass a quota's {@code status.hard} (what the quota controller has
 * observed of {@code spec.hard}), and otherwise recorded in each
 * such quota's {@code status.used} before the object is written, as kube does, so that concurrent
 * creates cannot pass a limit together (a conflicting status write is retried on the current
 * quota). A quota whose {@code status.hard} names a resource without its {@code status.used}
 * refuses the create with kube's {@code status unknown for quota}, and a pod that does not say a cpu or memory amount the
 * quota tracks with kube's {@code failed quota: q: must specify limits.cpu for: c1}. Dry runs are
 * checked and change nothing. It runs last among the validating plugins, as in kube.
 *
 * <p>{@code --admission-control-config-file} may give it a {@link ResourceQuotaConfiguration}: what
 * its {@code limitedResources} name may be consumed only in a namespace with a quota covering it,
 * else kube's 403 ({@code insufficient quota to consume: requests.storage}) or, for a pod within a
 * limited scope that no quota of the namespace has, kube's 500 ({@code insufficient quota to match
 * these scopes: [{PriorityClass In [gold]}]}).
 */
// The name from before the package split: a plugin update swaps a component for the one of the same name.
@Component(name = "io.kubelix.resource.core.ResourceQuotaAdmission", service = ValidatingAdmissionPlugin.class)
public final class ResourceQuotaAdmission implements ValidatingAdmissionPlugin {
    static final String PLUGIN_NAME = "ResourceQuota";
    private static final Logger LOG = LoggerFactory.getLogger(ResourceQuotaAdmission.class);

    /** The quotas of a namespace, as the quota informer has them. */
    private final Function<String, List<ObjectNode>> quotasIn;
    private final QuotaStatusWriter status;
    private final ResourceQuotaConfiguration config;

    @Activate
    public ResourceQuotaAdmission(@Reference QuotaStatusWriter status, @Reference SharedInformerFactory informers,
                                  BundleContext context) {
        this(namespace -> informers.forResource(ResourceQuotaController.RESOURCE_QUOTAS).lister().byNamespace(namespace)
                .list(), status, configuration(context.getProperty(AdmissionConfigurationFile.PROPERTY)));
    }

    ResourceQuotaAdmission(Function<String, List<ObjectNode>> quotasIn, QuotaStatusWriter status,
                           ResourceQuotaConfiguration config) {
        this.quotasIn = quotasIn;
        this.status = status;
        this.config = config;
    }

    /** The plugin's configuration in {@code admissionConfigFile}; an invalid one leaves the plugin unstarted. */
    private static ResourceQuotaConfiguration configuration(String admissionConfigFile) {
        ResourceQuotaConfiguration c = AdmissionConfigurationFile.pluginConfiguration(admissionConfigFile, PLUGIN_NAME,
                new ObjectMapper(new YAMLFactory())).map(ResourceQuotaConfiguration::of)
                .orElse(ResourceQuotaConfiguration.DEFAULT);
        if (!c.limitedResources().isEmpty()) {
            LOG.info("ResourceQuota: limited resources {} (from {})", c.limitedResources(), admissionConfigFile);
        }
        return c;
    }

    @Override
    public String name() {
        return PLUGIN_NAME;
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE || operation == Operation.UPDATE;
    }

    @Override
    public void validate(AdmissionAttributes a) {
        if (a.namespace() == null || a.namespace().isEmpty() || a.object() == null) {
            return;
        }
        // kube's evaluators handle creates, and of updates a claim's and a pod's through pods/resize, each
        // charged what it adds; no other subresource.
        boolean update = a.operation() == Operation.UPDATE;
        boolean podResize = update && a.subresource().equals("resize") && isCore(a, "pods");
        if (!a.subresource().isEmpty() && !podResize
                || update && !podResize && !isCore(a, "persistentvolumeclaims")) {
            return;
        }
        List<ObjectNode> quotas = quotasIn.apply(a.namespace());
        if (quotas.isEmpty() && config.limitedResources().isEmpty()) {
            return;
        }
        QuotaEvaluator evaluator = QuotaEvaluator.forResource(a.resource().group(), a.resource().resource());
        Map<String, Quantity> usage = evaluator.usage(a.object());
        List<String> negative = usage.entrySet().stream().filter(e -> e.getValue().signum() < 0).map(Map.Entry::getKey)
                .toList();
        if (!negative.isEmpty()) {
            throw forbidden(a, "quota usage is negative for resource(s): " + String.join(",", negative));
        }
        // What the configuration's limitedResources require a covering quota for, and what the quotas cover.
        Set<String> limited = config.limitedByDefault(a.resource().groupResource(), usage);
        List<QuotaScopes.Selector> limitedScopes = config.limitedResources().stream()
                .flatMap(l -> evaluator.matchingScopes(a.object(), l.matchScopes()).stream()).toList();
        Set<String> covered = new TreeSet<>();
        List<QuotaScopes.Selector> coveredScopes = new ArrayList<>();
        List<ObjectNode> matching = new ArrayList<>();
        for (ObjectNode quota : quotas) {
            coveredScopes.addAll(evaluator.matchingScopes(a.object(), QuotaScopes.of(quota)));
            Set<String> restricted = restricted(quota, evaluator);
            if (!restricted.isEmpty() && evaluator.matchesScopes(QuotaScopes.of(quota), a.object())) {
                matching.add(quota);
                covered.addAll(restricted);
            }
        }
        if (update && a.oldObject() != null) {
            ResourceLists.subtractWithNonNegativeResult(usage, evaluator.usage(a.oldObject()));
        }
        usage.values().removeIf(q -> q.signum() == 0);
        if (usage.isEmpty()) {
            return;
        }
        limited.removeAll(covered);
        if (!limited.isEmpty()) {
            throw forbidden(a, "insufficient quota to consume: " + String.join(",", limited));
        }
        List<QuotaScopes.Selector> uncovered = limitedScopes.stream().filter(l -> coveredScopes.stream()
                .noneMatch(c -> c.scopeName().equals(l.scopeName()))).toList();
        if (!uncovered.isEmpty()) {
            // kube returns this one as a plain error, which its handler answers as a 500 of no reason.
            throw new StatusException(StatusReason.UNKNOWN, 500, "insufficient quota to match these scopes: "
                    + uncovered.stream().map(QuotaScopes.Selector::toString).collect(Collectors.joining(" ", "[", "]")),
                    null, null);
        }
        for (ObjectNode quota : matching) {
            status.update(a.namespace(), quota.path("metadata").path("name").asText(),
                    current -> charge(current, evaluator, usage, a), a.dryRun());
        }
    }

    private static boolean isCore(AdmissionAttributes a, String resource) {
        return a.resource().group().isEmpty() && a.resource().resource().equals(resource);
    }

    /**
     * kube's restrictedResources: the resources of the quota's {@code status.hard} that the evaluator
     * tracks. Admission enforces the limits the quota controller has observed, not {@code spec.hard}:
     * a quota the controller has not synced yet limits nothing, and a changed {@code spec.hard} applies
     * once the controller has copied it, as in kube.
     */
    private static Set<String> restricted(ObjectNode quota, QuotaEvaluator evaluator) {
        Set<String> restricted = new TreeSet<>();
        quota.path("status").path("hard").fieldNames().forEachRemaining(r -> {
            if (evaluator.matchesResource(r)) {
                restricted.add(r);
            }
        });
        return restricted;
    }

    /** The quota with the object's usage added, or null when it does not limit what the object uses. */
    private static ObjectNode charge(ObjectNode quota, QuotaEvaluator evaluator, Map<String, Quantity> usage,
                                     AdmissionAttributes a) {
        Set<String> restricted = restricted(quota, evaluator);
        if (restricted.isEmpty() || !evaluator.matchesScopes(QuotaScopes.of(quota), a.object())) {
            return null;
        }
        String name = quota.path("metadata").path("name").asText();
        String constraint = evaluator.constraints(restricted, a.object());
        if (constraint != null) {
            throw forbidden(a, "failed quota: " + name + ": " + constraint);
        }
        Map<String, Quantity> hard = ResourceLists.read(quota.path("status").path("hard"));
        Map<String, Quantity> used = ResourceLists.read(quota.path("status").path("used"));
        // kube's hasUsageStats; its message names every restricted resource, not only those without usage
        if (!used.keySet().containsAll(restricted)) {
            throw forbidden(a, "status unknown for quota: " + name + ", resources: " + String.join(",", restricted));
        }
        Map<String, Quantity> requested = ResourceLists.mask(usage, restricted);
        if (requested.isEmpty()) {
            return null;
        }
        Set<String> exceeded = new TreeSet<>();
        ObjectNode charged = quota.deepCopy();
        ObjectNode newUsed = charged.with("status").with("used");
        requested.forEach((r, q) -> {
            Quantity now = used.get(r).add(q);
            if (now.compareTo(hard.get(r)) > 0) {
                exceeded.add(r);
            }
            newUsed.put(r, now.canonical());
        });
        if (!exceeded.isEmpty()) {
            throw forbidden(a, "exceeded quota: " + name + ", requested: " + ResourceLists.pretty(ResourceLists.mask(
                    requested, exceeded)) + ", used: " + ResourceLists.pretty(ResourceLists.mask(used, exceeded))
                    + ", limited: " + ResourceLists.pretty(ResourceLists.mask(hard, exceeded)));
        }
        return charged;
    }

    private static StatusException forbidden(AdmissionAttributes a, String why) {
        return StatusException.forbidden(a.resource().groupResource(), a.name(), why);
    }
}
