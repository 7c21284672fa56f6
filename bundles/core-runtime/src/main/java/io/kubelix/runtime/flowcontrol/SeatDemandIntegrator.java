package io.kubelix.runtime.flowcontrol;

/**
 * kube's fairqueuing Integrator over a priority level's seat demand (seats in use plus seats
 * asked for by waiting requests): its time-weighted average, standard deviation and maximum since
 * the last {@link #reset}, which seat borrowing between levels reads every 10 seconds.
 */
final class SeatDemandIntegrator {
    /** What an interval saw; {@code average} and {@code deviation} are NaN for an empty interval. */
    record Results(double seconds, double average, double deviation, double max) {
    }

    private long startNanos;
    private long lastNanos;
    private double value;
    private double sum;
    private double sumOfSquares;
    private double max;

    SeatDemandIntegrator(long nowNanos) {
        startNanos = nowNanos;
        lastNanos = nowNanos;
    }

    /** The demand is {@code v} from {@code nowNanos} on. */
    void set(long nowNanos, double v) {
        integrate(nowNanos);
        value = v;
        max = Math.max(max, v);
    }

    /** The interval's results; a new interval starts, at the demand of now. */
    Results reset(long nowNanos) {
        integrate(nowNanos);
        double seconds = (nowNanos - startNanos) / 1e9;
        double average = seconds > 0 ? sum / seconds : Double.NaN;
        double deviation = seconds > 0 ? Math.sqrt(Math.max(0, sumOfSquares / seconds - average * average)) : Double.NaN;
        Results r = new Results(seconds, average, deviation, max);
        startNanos = nowNanos;
        sum = 0;
        sumOfSquares = 0;
        max = value;
        return r;
    }

    private void integrate(long nowNanos) {
        double dt = (nowNanos - lastNanos) / 1e9;
        if (dt > 0) {
            sum += value * dt;
            sumOfSquares += value * value * dt;
        }
        lastNanos = nowNanos;
    }
}
