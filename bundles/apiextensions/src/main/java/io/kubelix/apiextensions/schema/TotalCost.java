package io.kubelix.apiextensions.schema;

import io.kubelix.api.errors.FieldError;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * kube's static cost limits for the CEL of a CRD's schema (apiextensions' TotalCost and
 * getCostErrorMessage): each rule or message expression, its estimated cost times the number of
 * times it can run in one object, must stay under {@link #STATIC_ESTIMATED_COST_LIMIT}, and all of
 * them together under {@link #STATIC_ESTIMATED_CRD_COST_LIMIT}; when the total goes over, the four
 * most expensive (of those over 1% of the limit) are named with it.
 */
final class TotalCost {
    /** kube's StaticEstimatedCostLimit, for one expression. */
    static final long STATIC_ESTIMATED_COST_LIMIT = 10_000_000L;
    /** kube's StaticEstimatedCRDCostLimit, for all the expressions of one schema. */
    static final long STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000L;

    private record RuleCost(String path, long cost) {
    }

    private long total;
    private final List<RuleCost> mostExpensive = new ArrayList<>();

    /** Adds the cost of the expression at {@code path}. */
    void observe(String path, long cost) {
        total = total > Long.MAX_VALUE - cost ? Long.MAX_VALUE : total + cost;
        if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100) {
            return;
        }
        mostExpensive.add(new RuleCost(path, cost));
        mostExpensive.sort(Comparator.comparingLong(RuleCost::cost).reversed());
        if (mostExpensive.size() > 4) {
            mostExpensive.remove(4);
        }
    }

    /** The errors of a total over the limit, the schema's own at {@code schemaPath}. */
    List<FieldError> errors(String schemaPath) {
        List<FieldError> errs = new ArrayList<>();
        if (total > STATIC_ESTIMATED_CRD_COST_LIMIT) {
            for (RuleCost expensive : mostExpensive) {
                errs.add(FieldError.forbidden(expensive.path(),
                        "contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema"));
            }
            errs.add(FieldError.forbidden(schemaPath, costErrorMessage(
                    "x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema",
                    total, STATIC_ESTIMATED_CRD_COST_LIMIT)));
        }
        return errs;
    }

    /** kube's words for a cost over its limit, by how far over. */
    static String costErrorMessage(String costName, long cost, long limit) {
        double factor = (double) cost / limit;
        String by = factor > 100.0 ? "more than 100x"
                : factor < 1.5 ? String.format(Locale.ROOT, "%fx", factor) // not "1.0x"
                : String.format(Locale.ROOT, "%.1fx", factor);
        return costName + " exceeds budget by factor of " + by + " (try simplifying the rule, or adding maxItems, "
                + "maxProperties, and maxLength where arrays, maps, and strings are declared)";
    }

    /** {@code cost * times}, at most the largest long; kube's multiplyWithOverflowGuard. */
    static long times(long cost, long times) {
        if (cost == 0) {
            return 0;
        }
        return Long.MAX_VALUE / cost < times ? Long.MAX_VALUE : cost * times;
    }
}
