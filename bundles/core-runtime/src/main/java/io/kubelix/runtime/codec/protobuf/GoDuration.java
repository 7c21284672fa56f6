package io.kubelix.runtime.codec.protobuf;

/** Go's time.Duration.String(): {@code 1h2m3.5s}, {@code 150ms}, {@code 0s}. */
final class GoDuration {

    private GoDuration() {
    }

    static String format(long nanos) {
        if (nanos == 0) {
            return "0s";
        }
        StringBuilder b = new StringBuilder();
        long n = nanos;
        if (n < 0) {
            b.append('-');
            n = -n;
        }
        if (n < 1_000_000_000L) {
            if (n < 1_000) {
                return b.append(n).append("ns").toString();
            }
            if (n < 1_000_000) {
                return b.append(trim(n / 1e3)).append("µs").toString();
            }
            return b.append(trim(n / 1e6)).append("ms").toString();
        }
        long hours = n / 3_600_000_000_000L;
        long minutes = n / 60_000_000_000L % 60;
        double seconds = (n % 60_000_000_000L) / 1e9;
        if (hours > 0) {
            b.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            b.append(minutes).append('m');
        }
        return b.append(trim(seconds)).append('s').toString();
    }

    private static String trim(double v) {
        String s = java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
        return s;
    }
}
