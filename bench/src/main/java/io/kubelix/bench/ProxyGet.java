package io.kubelix.bench;

import org.HdrHistogram.Histogram;

import java.net.http.HttpResponse;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * proxy-get: what an aggregator's proxy adds to a GET. The same path is read one request at a time,
 * through the server (whose aggregator proxies it to an extension API server) and directly from that
 * extension server ({@code --direct-server}, {@code --direct-ca}, {@code --direct-token}), in
 * alternating order so that both see the same machine; W warm-up rounds are not timed. Prints both
 * latencies and what the proxy adds at each percentile.
 */
final class ProxyGet {
    private final Kube proxied;
    private final Kube direct;
    private final String path;
    private final int warmup;
    private final int rounds;
    private final Histogram throughProxy = Stats.histogram();
    private final Histogram straight = Stats.histogram();

    ProxyGet(Kube proxied, Options o) throws Exception {
        this.proxied = proxied;
        this.direct = new Kube(new Options(new String[] {o.scenario, "--server", required(o, "direct-server"),
                "--ca", required(o, "direct-ca"), "--token", required(o, "direct-token"),
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
        for (int i = 0; i < warmup + rounds; i++) {
            boolean timed = i >= warmup;
            // Alternate which goes first, so neither always finds the other's work just done.
            if (i % 2 == 0) {
                get(proxied, timed ? throughProxy : null);
                get(direct, timed ? straight : null);
            } else {
                get(direct, timed ? straight : null);
                get(proxied, timed ? throughProxy : null);
            }
        }
        System.out.println(Stats.header());
        System.out.println(Stats.row("GET through the aggregator", throughProxy));
        System.out.println(Stats.row("GET from the extension server", straight));
        System.out.println(String.format(Locale.ROOT, "added by the proxy: p50 %s ms, p90 %s ms, p99 %s ms",
                added(50), added(90), added(99)));
    }

    private String added(double percentile) {
        return Stats.ms(throughProxy.getValueAtPercentile(percentile) - straight.getValueAtPercentile(percentile));
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
