package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.validation.NameValidators;
import io.kubelix.resource.core.common.FieldChecks;
import io.kubelix.resource.core.common.Nodes;
import io.kubelix.resource.core.common.Quantities;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's limitrangeStrategy with ValidateLimitRange: each limit has a known, unique type; its
 * amounts are quantities ordered as min ≤ defaultRequest ≤ default ≤ max, a Pod limit has no
 * defaults, a PersistentVolumeClaim limit bounds storage, resources are named as kube names them
 * (those of containers for Container and Pod limits), and a maxLimitRequestRatio is at least 1 and
 * at most max/min.
 */
final class LimitRangeStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final String KIND = "LimitRange";
    static final List<String> TYPES = List.of("Container", "PersistentVolumeClaim", "Pod");
    /** kube's standardContainerResources, besides {@code hugepages-<size>}. */
    private static final Set<String> CONTAINER_RESOURCES = Set.of("cpu", "memory", "ephemeral-storage");
    private static final String[] AMOUNTS = {"max", "min", "default", "defaultRequest", "maxLimitRequestRatio"};

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode limits = obj.path("spec").path("limits");
        Set<String> types = new HashSet<>();
        for (int i = 0; i < limits.size(); i++) {
            String p = "spec.limits[" + i + "]";
            JsonNode limit = limits.get(i);
            String type = Nodes.text(limit, "type");
            List<FieldError> typeErrs = FieldChecks.oneOf(type, p + ".type", TYPES);
            errs.addAll(typeErrs);
            if (typeErrs.isEmpty() && !types.add(type)) {
                errs.add(FieldError.duplicate(p + ".type", type));
            }
            if ("Pod".equals(type)) {
                if (!limit.path("default").isEmpty()) {
                    errs.add(FieldError.forbidden(p + ".default", "may not be specified when `type` is 'Pod'"));
                }
                if (!limit.path("defaultRequest").isEmpty()) {
                    errs.add(FieldError.forbidden(p + ".defaultRequest", "may not be specified when `type` is 'Pod'"));
                }
            }
            if ("PersistentVolumeClaim".equals(type) && !limit.path("min").has("storage")
                    && !limit.path("max").has("storage")) {
                errs.add(FieldError.required(p + ".limits",
                        "either minimum or maximum storage value is required, but neither was provided"));
            }
            Set<String> resources = new HashSet<>();
            for (String amounts : AMOUNTS) {
                limit.path(amounts).fieldNames().forEachRemaining(r -> {
                    resources.add(r);
                    errs.addAll(resourceName(type, r, p + "." + amounts + "[" + r + "]"));
                });
            }
            for (String r : resources) {
                BigDecimal max = amount(limit, "max", r);
                BigDecimal min = amount(limit, "min", r);
                BigDecimal dflt = amount(limit, "default", r);
                BigDecimal request = amount(limit, "defaultRequest", r);
                BigDecimal ratio = amount(limit, "maxLimitRequestRatio", r);
                if (min != null && max != null && min.compareTo(max) > 0) {
                    errs.add(FieldError.invalid(p + ".min[" + r + "]", text(limit, "min", r),
                            "min value " + text(limit, "min", r) + " is greater than max value " + text(limit, "max", r)));
                }
                if (request != null) {
                    if (min != null && min.compareTo(request) > 0) {
                        errs.add(FieldError.invalid(p + ".defaultRequest[" + r + "]", text(limit, "defaultRequest", r),
                                "min value " + text(limit, "min", r) + " is greater than default request value "
                                        + text(limit, "defaultRequest", r)));
                    }
                    if (max != null && request.compareTo(max) > 0) {
                        errs.add(FieldError.invalid(p + ".defaultRequest[" + r + "]", text(limit, "defaultRequest", r),
                                "default request value " + text(limit, "defaultRequest", r) + " is greater than max value "
                                        + text(limit, "max", r)));
                    }
                    if (dflt != null && request.compareTo(dflt) > 0) {
                        errs.add(FieldError.invalid(p + ".defaultRequest[" + r + "]", text(limit, "defaultRequest", r),
                                "default request value " + text(limit, "defaultRequest", r)
                                        + " is greater than default limit value " + text(limit, "default", r)));
                    }
                }
                if (dflt != null) {
                    if (min != null && min.compareTo(dflt) > 0) {
                        errs.add(FieldError.invalid(p + ".default[" + r + "]", text(limit, "default", r),
                                "min value " + text(limit, "min", r) + " is greater than default value " + text(limit, "default", r)));
                    }
                    if (max != null && dflt.compareTo(max) > 0) {
                        errs.add(FieldError.invalid(p + ".default[" + r + "]", text(limit, "default", r),
                                "default value " + text(limit, "default", r) + " is greater than max value " + text(limit, "max", r)));
                    }
                }
                if (ratio != null) {
                    if (ratio.compareTo(BigDecimal.ONE) < 0) {
                        errs.add(FieldError.invalid(p + ".maxLimitRequestRatio[" + r + "]", text(limit, "maxLimitRequestRatio", r),
                                "ratio " + text(limit, "maxLimitRequestRatio", r) + " is less than 1"));
                    }
                    if (min != null && max != null && min.signum() > 0) {
                        BigDecimal maxRatio = max.divide(min, MathContext.DECIMAL64);
                        if (ratio.compareTo(maxRatio) > 0) {
                            errs.add(FieldError.invalid(p + ".maxLimitRequestRatio[" + r + "]",
                                    text(limit, "maxLimitRequestRatio", r), "ratio " + text(limit, "maxLimitRequestRatio", r)
                                            + " is greater than max/min = " + String.format("%f", maxRatio.doubleValue())));
                        }
                    }
                }
            }
        }
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validate(ctx, obj);
    }

    /**
     * kube's validateLimitRangeResourceName: a qualified name; without a domain, one of the
     * resources containers have for Container and Pod limits, a standard resource otherwise.
     */
    private static List<FieldError> resourceName(String type, String name, String path) {
        List<FieldError> errs = new ArrayList<>();
        NameValidators.isQualifiedName(name).forEach(m -> errs.add(FieldError.invalid(path, name, m)));
        if (!errs.isEmpty() || name.contains("/")) {
            return errs;
        }
        boolean container = CONTAINER_RESOURCES.contains(name) || name.startsWith("hugepages-");
        if ((type.equals("Container") || type.equals("Pod")) && !container) {
            errs.add(FieldError.invalid(path, name, "must be a standard resource for containers"));
        } else if (!container && !ResourceQuotaStrategy.STANDARD.contains(name) && !name.startsWith("requests.")
                && !name.startsWith("limits.")) {
            errs.add(FieldError.invalid(path, name, "must be a standard resource type or fully qualified"));
        }
        return errs;
    }

    private static BigDecimal amount(JsonNode limit, String field, String resource) {
        return Quantities.parse(limit.path(field).get(resource));
    }

    private static String text(JsonNode limit, String field, String resource) {
        return Quantities.text(limit.path(field).get(resource));
    }
}
