package io.kubelix.runtime.flowcontrol;

import java.util.List;

/**
 * kube's computeConcurrencyAllocation: shares {@code requiredSum} seats between priority levels in
 * proportion to their targets (their smoothed seat demand), each kept within its bounds. The result
 * is {@code clamp(fairProp * target, lower, upper)} for the one {@code fairProp} (kube's
 * {@code seat_fair_frac}) at which they add up to the sum; found here by bisection, as the sum
 * grows with {@code fairProp}.
 */
final class ConcurrencyAllocation {
    /** The smallest target a level is given, so that every level has a share. */
    static final double MIN_TARGET = 0.001;
    private static final double EPSILON = 1e-7;

    /** A level's bounds and target. */
    record Item(double lowerBound, double upperBound, double target) {
    }

    /** The seats of each item, in order, and the fair fraction that gave them. */
    record Result(double[] allocations, double fairFrac) {
    }

    private ConcurrencyAllocation() {
    }

    /** @throws IllegalArgumentException when the bounds cannot add up to {@code requiredSum} */
    static Result compute(int requiredSum, List<Item> items) {
        double lowSum = 0;
        double highSum = 0;
        for (Item i : items) {
            if (i.lowerBound() < 0 || i.upperBound() < i.lowerBound() || i.target() < i.lowerBound()) {
                throw new IllegalArgumentException("bounds " + i + " are not ordered");
            }
            lowSum += i.lowerBound();
            highSum += i.upperBound();
        }
        if (lowSum - requiredSum > EPSILON) {
            throw new IllegalArgumentException("lower bounds sum to " + lowSum + ", above " + requiredSum);
        }
        if (requiredSum - highSum > EPSILON) {
            throw new IllegalArgumentException("upper bounds sum to " + highSum + ", below " + requiredSum);
        }
        double[] out = new double[items.size()];
        if (requiredSum == 0) {
            return new Result(out, 0);
        }
        double low = 0;
        double high = 1;
        while (sum(items, high) < requiredSum - EPSILON && high < 1e15) {
            high *= 2;
        }
        for (int n = 0; n < 200 && high - low > 1e-12 * high; n++) {
            double mid = (low + high) / 2;
            if (sum(items, mid) < requiredSum) {
                low = mid;
            } else {
                high = mid;
            }
        }
        for (int k = 0; k < out.length; k++) {
            out[k] = allocation(items.get(k), high);
        }
        return new Result(out, high);
    }

    private static double sum(List<Item> items, double fairProp) {
        double s = 0;
        for (Item i : items) {
            s += allocation(i, fairProp);
        }
        return s;
    }

    private static double allocation(Item i, double fairProp) {
        return Math.max(i.lowerBound(), Math.min(i.upperBound(), fairProp * Math.max(i.target(), MIN_TARGET)));
    }
}
