package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.resource.core.common.Quantities;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The ResourceQuota admission plugin (plugin/pkg/admission/resourcequota) for object counts: a
 * create in a namespace whose quotas limit that kind of object is refused with kube's 403
 * ({@code exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=3, limited:
 * count/configmaps=3}) when it would pass a quota's {@code hard}, and otherwise recorded in each
 * such quota's {@code status.used} before the object is written, as kube does, so that concurrent
 * creates cannot pass a limit together (a conflicting status write is retried on the current
 * quota). A quota whose usage the quota controller has not computed yet refuses the create with
 * kube's {@code status unknown for quota}. Dry runs are checked and change nothing. It runs last
 * among the validating plugins, as in kube.
 */
// The name from before the package split: a plugin update swaps a component for the one of the same name.
@Component(name = "io.kubelix.resource.core.ResourceQuotaAdmission", service = ValidatingAdmissionPlugin.class)
public final class ResourceQuotaAdmission implements ValidatingAdmissionPlugin {
    static final String PLUGIN_NAME = "ResourceQuota";

    /** The quotas of a namespace, as the quota informer has them. */
    private final Function<String, List<ObjectNode>> quotasIn;
    private final QuotaStatusWriter status;

    @Activate
    public ResourceQuotaAdmission(@Reference QuotaStatusWriter status, @Reference SharedInformerFactory informers) {
        this(namespace -> informers.forResource(ResourceQuotaController.RESOURCE_QUOTAS).lister().byNamespace(namespace)
                .list(), status);
    }

    ResourceQuotaAdmission(Function<String, List<ObjectNode>> quotasIn, QuotaStatusWriter status) {
        this.quotasIn = quotasIn;
        this.status = status;
    }

    @Override
    public String name() {
        return PLUGIN_NAME;
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE;
    }

    @Override
    public void validate(AdmissionAttributes a) {
        if (a.namespace() == null || a.namespace().isEmpty() || !a.subresource().isEmpty()) {
            return;
        }
        for (ObjectNode quota : quotasIn.apply(a.namespace())) {
            if (limits(quota, a)) {
                status.update(a.namespace(), quota.path("metadata").path("name").asText(), current -> charge(current, a),
                        a.dryRun());
            }
        }
    }

    private static boolean limits(ObjectNode quota, AdmissionAttributes a) {
        for (java.util.Iterator<String> it = quota.path("spec").path("hard").fieldNames(); it.hasNext(); ) {
            if (QuotaResources.counts(it.next(), a.resource().group(), a.resource().resource())) {
                return true;
            }
        }
        return false;
    }

    /** The quota with the create counted, or null when it does not limit this resource. */
    private static ObjectNode charge(ObjectNode quota, AdmissionAttributes a) {
        JsonNode hard = quota.path("status").path("hard");
        JsonNode used = quota.path("status").path("used");
        Map<String, Long> requested = new TreeMap<>();
        quota.path("spec").path("hard").fieldNames().forEachRemaining(r -> {
            if (QuotaResources.counts(r, a.resource().group(), a.resource().resource())) {
                requested.put(r, 1L);
            }
        });
        if (requested.isEmpty()) {
            return null;
        }
        String name = quota.path("metadata").path("name").asText();
        List<String> unknown = requested.keySet().stream().filter(r -> !hard.has(r) || !used.has(r)).toList();
        if (!unknown.isEmpty()) {
            throw forbidden(a, "status unknown for quota: " + name + ", resources: " + String.join(",", unknown));
        }
        Map<String, Long> exceededRequested = new TreeMap<>();
        Map<String, String> exceededUsed = new TreeMap<>();
        Map<String, String> exceededHard = new TreeMap<>();
        ObjectNode charged = quota.deepCopy();
        ObjectNode newUsed = charged.with("status").with("used");
        for (Map.Entry<String, Long> e : requested.entrySet()) {
            long now = count(used.path(e.getKey()));
            long limit = count(hard.path(e.getKey()));
            if (now + e.getValue() > limit) {
                exceededRequested.put(e.getKey(), e.getValue());
                exceededUsed.put(e.getKey(), used.path(e.getKey()).asText());
                exceededHard.put(e.getKey(), hard.path(e.getKey()).asText());
            }
            newUsed.put(e.getKey(), Long.toString(now + e.getValue()));
        }
        if (!exceededRequested.isEmpty()) {
            throw forbidden(a, "exceeded quota: " + name + ", requested: " + pretty(exceededRequested) + ", used: "
                    + pretty(exceededUsed) + ", limited: " + pretty(exceededHard));
        }
        return charged;
    }

    private static long count(JsonNode quantity) {
        java.math.BigDecimal v = Quantities.parse(quantity);
        return v == null ? 0 : v.longValue();
    }

    private static String pretty(Map<String, ?> values) {
        List<String> parts = new ArrayList<>();
        values.forEach((k, v) -> parts.add(k + "=" + v));
        return String.join(",", parts);
    }

    private static StatusException forbidden(AdmissionAttributes a, String why) {
        return StatusException.forbidden(a.resource().groupResource(), a.name(), why);
    }
}
