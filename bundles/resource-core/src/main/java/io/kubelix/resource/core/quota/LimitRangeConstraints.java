package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.support.quantity.Quantity;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The LimitRanger's checks (plugin/pkg/admission/limitranger: PodValidateLimitFunc and
 * PersistentVolumeClaimValidateLimitFunc): each container's, the pod's and each claim's requests
 * and limits against the {@code min}, {@code max} and {@code maxLimitRequestRatio} of a LimitRange,
 * worded as kube words them ({@code maximum cpu usage per Container is 1, but limit is 2}). Amounts
 * are compared in thousandths rounded up, as kube's MilliValue.
 */
final class LimitRangeConstraints {
    private LimitRangeConstraints() {
    }

    /** What a pod breaks of the range's Container and Pod limits, in kube's order and words. */
    static Set<String> pod(ObjectNode range, JsonNode spec) {
        Set<String> errors = new LinkedHashSet<>();
        for (JsonNode item : range.path("spec").path("limits")) {
            String type = item.path("type").asText();
            if (type.equals("Container")) {
                for (String list : new String[] {"containers", "initContainers"}) {
                    for (JsonNode c : spec.path(list)) {
                        check(item, type, ResourceLists.read(c.path("resources").path("requests")),
                                ResourceLists.read(c.path("resources").path("limits")), errors);
                    }
                }
            } else if (type.equals("Pod")) {
                check(item, type, PodEvaluator.podAmount(spec, "requests"), PodEvaluator.podAmount(spec, "limits"), errors);
            }
        }
        return errors;
    }

    /** What a claim's storage requests break of the range's PersistentVolumeClaim limits. */
    static Set<String> claim(ObjectNode range, JsonNode spec) {
        Set<String> errors = new LinkedHashSet<>();
        Map<String, Quantity> requests = ResourceLists.read(spec.path("resources").path("requests"));
        for (JsonNode item : range.path("spec").path("limits")) {
            if (item.path("type").asText().equals("PersistentVolumeClaim")) {
                String type = "PersistentVolumeClaim";
                ResourceLists.read(item.path("min")).forEach((r, enforced) ->
                        add(errors, min(type, r, enforced, requests, Map.of())));
                ResourceLists.read(item.path("max")).forEach((r, enforced) -> {
                    Quantity req = requests.get(r);
                    if (req == null) {
                        errors.add("maximum " + r + " usage per " + type + " is " + enforced.canonical()
                                + ".  No request is specified");
                    } else if (milli(req).compareTo(milli(enforced)) > 0) {
                        errors.add("maximum " + r + " usage per " + type + " is " + enforced.canonical()
                                + ", but request is " + req.canonical());
                    }
                });
            }
        }
        return errors;
    }

    /** kube's NewAggregate message: one error as it is, several in brackets. */
    static String aggregate(Set<String> errors) {
        return errors.size() == 1 ? errors.iterator().next() : "[" + String.join(", ", errors) + "]";
    }

    private static void check(JsonNode item, String type, Map<String, Quantity> requests, Map<String, Quantity> limits,
                              Set<String> errors) {
        ResourceLists.read(item.path("min")).forEach((r, q) -> add(errors, min(type, r, q, requests, limits)));
        ResourceLists.read(item.path("max")).forEach((r, q) -> add(errors, max(type, r, q, requests, limits)));
        ResourceLists.read(item.path("maxLimitRequestRatio")).forEach((r, q) ->
                add(errors, ratio(type, r, q, requests, limits)));
    }

    private static void add(Set<String> errors, String error) {
        if (error != null) {
            errors.add(error);
        }
    }

    private static String min(String type, String r, Quantity enforced, Map<String, Quantity> requests,
                              Map<String, Quantity> limits) {
        Quantity req = requests.get(r);
        Quantity lim = limits.get(r);
        String prefix = "minimum " + r + " usage per " + type + " is " + enforced.canonical();
        if (req == null) {
            return prefix + ".  No request is specified";
        }
        if (milli(req).compareTo(milli(enforced)) < 0) {
            return prefix + ", but request is " + req.canonical();
        }
        if (lim != null && milli(lim).compareTo(milli(enforced)) < 0) {
            return prefix + ", but limit is " + lim.canonical();
        }
        return null;
    }

    private static String max(String type, String r, Quantity enforced, Map<String, Quantity> requests,
                              Map<String, Quantity> limits) {
        Quantity req = requests.get(r);
        Quantity lim = limits.get(r);
        String prefix = "maximum " + r + " usage per " + type + " is " + enforced.canonical();
        if (lim == null) {
            return prefix + ".  No limit is specified";
        }
        if (milli(lim).compareTo(milli(enforced)) > 0) {
            return prefix + ", but limit is " + lim.canonical();
        }
        if (req != null && milli(req).compareTo(milli(enforced)) > 0) {
            return prefix + ", but request is " + req.canonical();
        }
        return null;
    }

    private static String ratio(String type, String r, Quantity enforced, Map<String, Quantity> requests,
                                Map<String, Quantity> limits) {
        Quantity req = requests.get(r);
        Quantity lim = limits.get(r);
        String prefix = r + " max limit to request ratio per " + type + " is " + enforced.canonical();
        if (req == null || milli(req).signum() == 0) {
            return prefix + ", but no request is specified or request is 0";
        }
        if (lim == null || milli(lim).signum() == 0) {
            return prefix + ", but no limit is specified or limit is 0";
        }
        double observed = milli(lim).doubleValue() / milli(req).doubleValue();
        if (observed * 1000 > milli(enforced).doubleValue()) {
            return prefix + ", but provided ratio is " + String.format("%f", observed);
        }
        return null;
    }

    /** kube's MilliValue: thousandths, rounded up. */
    private static BigDecimal milli(Quantity q) {
        return q.value().movePointRight(3).setScale(0, RoundingMode.CEILING);
    }
}
