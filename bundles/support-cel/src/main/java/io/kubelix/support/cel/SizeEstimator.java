package io.kubelix.support.cel;

import java.util.List;

/**
 * Sizes of the values an expression's variables hold, for the static cost estimate (the
 * {@code EstimateSize} half of cel-go's {@code checker.CostEstimator}). A path starts with a variable
 * and goes on with field names (as CEL spells them), {@code @items} (list items), {@code @keys} and
 * {@code @values} (map keys and values); {@link SchemaSizes} answers from an OpenAPI schema.
 */
@FunctionalInterface
public interface SizeEstimator {
    /** The size of what {@code path} reaches, or null when nothing bounds it. */
    SizeEstimate estimateSize(List<String> path);

    /** Knows no sizes: every variable-length value is unbounded. */
    SizeEstimator NONE = path -> null;
}
