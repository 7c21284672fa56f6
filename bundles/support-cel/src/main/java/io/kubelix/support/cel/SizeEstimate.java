package io.kubelix.support.cel;

/**
 * The range of sizes of a string, bytes, list or map (cel-go's {@code checker.SizeEstimate}):
 * characters, bytes, items or entries, what CEL's {@code size()} would return.
 */
public record SizeEstimate(long min, long max) {
    /** A size nothing bounds. */
    public static final SizeEstimate UNKNOWN = new SizeEstimate(0, CostEstimate.UNBOUNDED);

    public static SizeEstimate fixed(long size) {
        return new SizeEstimate(size, size);
    }

    SizeEstimate add(SizeEstimate o) {
        return new SizeEstimate(CostEstimate.add(min, o.min), CostEstimate.add(max, o.max));
    }

    SizeEstimate multiply(SizeEstimate o) {
        return new SizeEstimate(CostEstimate.multiply(min, o.min), CostEstimate.multiply(max, o.max));
    }

    SizeEstimate union(SizeEstimate o) {
        return new SizeEstimate(Math.min(min, o.min), Math.max(max, o.max));
    }

    CostEstimate multiplyByCostFactor(double factor) {
        return new CostEstimate(CostEstimate.multiplyByCostFactor(min, factor), CostEstimate.multiplyByCostFactor(max, factor));
    }

    CostEstimate multiplyByCost(CostEstimate cost) {
        return new CostEstimate(CostEstimate.multiply(min, cost.min()), CostEstimate.multiply(max, cost.max()));
    }

    CostEstimate asCost() {
        return new CostEstimate(min, max);
    }
}
