package io.kubelix.support.cel;

/**
 * A range of CEL cost units (cel-go's {@code checker.CostEstimate}), as the static estimator gives
 * it for an expression before it ever runs: {@code max} is what kube compares with its limits. The
 * arithmetic saturates at {@link #UNBOUNDED} instead of overflowing, as cel-go's saturates at the
 * largest uint64; either is far above any limit, so comparisons come out the same.
 */
public record CostEstimate(long min, long max) {
    /** Stands for cel-go's {@code math.MaxUint64}: a cost or size nothing bounds. */
    public static final long UNBOUNDED = Long.MAX_VALUE;

    static final CostEstimate ZERO = new CostEstimate(0, 0);

    static CostEstimate fixed(long cost) {
        return new CostEstimate(cost, cost);
    }

    CostEstimate add(CostEstimate o) {
        return new CostEstimate(add(min, o.min), add(max, o.max));
    }

    CostEstimate multiply(CostEstimate o) {
        return new CostEstimate(multiply(min, o.min), multiply(max, o.max));
    }

    CostEstimate multiplyByCostFactor(double factor) {
        return new CostEstimate(multiplyByCostFactor(min, factor), multiplyByCostFactor(max, factor));
    }

    CostEstimate union(CostEstimate o) {
        return new CostEstimate(Math.min(min, o.min), Math.max(max, o.max));
    }

    static long add(long x, long y) {
        return x > UNBOUNDED - y ? UNBOUNDED : x + y;
    }

    static long multiply(long x, long y) {
        return y != 0 && x > UNBOUNDED / y ? UNBOUNDED : x * y;
    }

    /** {@code x * factor} rounded up, as cel-go's multiplyByCostFactor. */
    static long multiplyByCostFactor(long x, double factor) {
        double product = Math.ceil((double) x * factor);
        return product >= (double) UNBOUNDED ? UNBOUNDED : (long) product;
    }
}
