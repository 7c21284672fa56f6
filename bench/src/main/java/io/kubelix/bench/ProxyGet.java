package io.kubelix.bench;

import org.HdrHistogram.Histogram;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * proxy-get: what an aggregator's proxy adds to a GET. The same path is read one request at a time,
 * through the server (whose aggregator proxies it to an extension API server) and directly from that
 * extension server ({@code --direct-server}, {@code --direct-ca}, {@code --direct-token}), in
 * alternating order so that both see the same machine; W warm-up rounds are not timed. Prints both
 * latencies and what the proxy adds at each percentile. With {@code --baseline-server},
 * {@code --baseline-ca} and {@code --baseline-token}, a second aggregating server (another build, in
 * front of the same extension server) is read in the same rotation, so that two builds' proxies are
 * compared on the same machine at the same time.
 */
final class ProxyGet {
    private final Kube proxied;
    private final Kube direct;
    private final Kube baseline;
    private final String path;
    private final int warmup;
    private final int rounds;
    private final Histogram throughProxy = Stats.histogram();
    private final Histogram straight = Stats.histogram();
    private final Histogram throughBaseline = Stats.histogram();

    ProxyGet(Kube proxied, Options o) throws Exception {
        this.proxied = proxied;
        this.direct = new Kube(new Options(new String[] {o.scenario, "--server", required(o, "direct-server"),
                "--ca", required(o, "direct-ca"), "--token", required(o, "direct-token"),
                "--request-connections", o.get("request-connections", "4"), "--client", o.get("client", "jetty")}));
        this.baseline = o.get("baseline-server") == null ? null
                : new Kube(new Options(new String[] {o.scenario, "--server", o.get("baseline-server"),
                "--ca", required(o, "baseline-ca"), "--token", required(o, "baseline-token"),
                "--request-connections", o.get("request-connections", "4"), "--client", o.get("client", "jetty")}));
        this.path = required(o, "path");
        this.warmup = o.integer("warmup", 2000);
        this.rounds = o.integer("rounds", 5000);
    }

    private static String required(Options o, String flag) {
        String v = o.get(flag);
        if (v == null) {
            throw new IllegalArgumentException("--" + flag + " is required");
        }
        return v;
    }

    void run() throws Exception {
        System.out.printf("proxy-get: GET %s, %d warm-up and %d timed rounds, one request at a time%n", path, warmup,
                rounds);
        List<Kube> targets = baseline == null ? List.of(proxied, direct) : List.of(proxied, direct, baseline);
        List<Histogram> timings = List.of(throughProxy, straight, throughBaseline);
        for (int i = 0; i < warmup + rounds; i++) {
            boolean timed = i >= warmup;
            // Rotate which goes first, so none always finds the others' work just done.
            for (int k = 0; k < targets.size(); k++) {
                int t = (i + k) % targets.size();
                get(targets.get(t), timed ? timings.get(t) : null);
            }
        }
        System.out.println(Stats.header());
        System.out.println(Stats.row("GET through the aggregator", throughProxy));
        System.out.println(Stats.row("GET from the extension server", straight));
        System.out.println(String.format(Locale.ROOT, "added by the proxy: p50 %s ms, p90 %s ms, p99 %s ms",
                added(throughProxy, 50), added(throughProxy, 90), added(throughProxy, 99)));
        if (baseline != null) {
            System.out.println(Stats.row("GET through the baseline aggregator", throughBaseline));
            System.out.println(String.format(Locale.ROOT, "added by the baseline's proxy: p50 %s ms, p90 %s ms, p99 %s ms",
                    added(throughBaseline, 50), added(throughBaseline, 90), added(throughBaseline, 99)));
            System.out.println(String.format(Locale.ROOT, "added, this build / the baseline: p50 %.2f, p90 %.2f, p99 %.2f",
                    ratio(50), ratio(90), ratio(99)));
        }
    }

    private String added(Histogram through, double percentile) {
        return Stats.ms(through.getValueAtPercentile(percentile) - straight.getValueAtPercentile(percentile));
    }

    private double ratio(double percentile) {
        double direct = straight.getValueAtPercentile(percentile);
        return (throughProxy.getValueAtPercentile(percentile) - direct)
                / (throughBaseline.getValueAtPercentile(percentile) - direct);
    }

    private void get(Kube kube, Histogram h) throws Exception {
        long start = System.nanoTime();
        HttpResponse<byte[]> r = kube.send("GET", path, null, null).get(30, TimeUnit.SECONDS);
        long micros = TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start);
        if (r.statusCode() != 200) {
            throw new IllegalStateException("GET " + path + ": HTTP " + r.statusCode() + " " + new String(r.body()));
        }
        if (h != null) {
            h.recordValue(micros);
        }
    }
}
