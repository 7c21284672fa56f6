package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A {@code /metrics} answer as Prometheus' own Python client parses it (Debian's
 * {@code python3-prometheus-client}: {@code prometheus_client.parser} for the text format,
 * {@code prometheus_client.openmetrics.parser} for OpenMetrics, which rejects what the format does
 * not allow), run with {@code kubelix.itest.python}, else {@code /usr/bin/python3}.
 */
final class PrometheusScrape {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PARSE = """
            import sys, json
            if sys.argv[1] == "openmetrics":
                from prometheus_client.openmetrics.parser import text_string_to_metric_families
            else:
                from prometheus_client.parser import text_string_to_metric_families
            out = []
            for f in text_string_to_metric_families(sys.stdin.read()):
                out.append({"name": f.name, "type": f.type,
                            "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in f.samples]})
            print(json.dumps(out))
            """;

    record Sample(String name, Map<String, String> labels, double value) {
    }

    record Family(String name, String type, List<Sample> samples) {
    }

    private final List<Family> families;

    private PrometheusScrape(List<Family> families) {
        this.families = families;
    }

    /** Parses {@code body} as the Prometheus text format, or OpenMetrics when {@code openMetrics}. */
    static PrometheusScrape parse(String body, boolean openMetrics) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(System.getProperty("kubelix.itest.python", "/usr/bin/python3"), "-c", PARSE,
                openMetrics ? "openmetrics" : "text").start();
        p.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("the Prometheus parser refused the scrape: " + err);
        }
        List<Family> families = new ArrayList<>();
        for (JsonNode f : JSON.readTree(out)) {
            List<Sample> samples = new ArrayList<>();
            for (JsonNode s : f.path("samples")) {
                samples.add(new Sample(s.path("name").asText(),
                        JSON.convertValue(s.path("labels"), JSON.getTypeFactory().constructMapType(Map.class, String.class, String.class)),
                        s.path("value").asDouble()));
            }
            families.add(new Family(f.path("name").asText(), f.path("type").asText(), samples));
        }
        return new PrometheusScrape(families);
    }

    /** The family named {@code name} (a counter's without {@code _total}), or an AssertionError. */
    Family family(String name) {
        return families.stream().filter(f -> f.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no metric family " + name + " in the scrape; families: "
                        + families.stream().map(Family::name).toList()));
    }

    boolean has(String name) {
        return families.stream().anyMatch(f -> f.name().equals(name));
    }

    /** The sum of the samples named {@code sample} whose labels include {@code labels}. */
    double sum(String sample, Map<String, String> labels) {
        return families.stream().flatMap(f -> f.samples().stream())
                .filter(s -> s.name().equals(sample) && s.labels().entrySet().containsAll(labels.entrySet()))
                .mapToDouble(Sample::value).sum();
    }

    /** The samples named {@code sample} whose labels include {@code labels}. */
    List<Sample> samples(String sample, Map<String, String> labels) {
        return families.stream().flatMap(f -> f.samples().stream())
                .filter(s -> s.name().equals(sample) && s.labels().entrySet().containsAll(labels.entrySet()))
                .toList();
    }
}
