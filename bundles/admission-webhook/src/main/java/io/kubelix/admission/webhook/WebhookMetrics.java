package io.kubelix.admission.webhook;

import io.kubelix.api.metrics.Counter;
import io.kubelix.api.metrics.Gauge;
import io.kubelix.api.metrics.Histogram;
import io.kubelix.api.metrics.MetricsRegistry;

import java.util.List;

/**
 * kube-apiserver's admission webhook metrics, with its names, labels and buckets, by webhook
 * {@code name}, {@code type} ({@code admit} for mutating webhooks, {@code validate} for validating
 * ones) and {@code operation}: each call's latency and outcome
 * ({@code apiserver_admission_webhook_admission_duration_seconds},
 * {@code apiserver_admission_webhook_request_total} with the HTTP {@code code} the request was
 * answered, 0 when there was none), the requests a webhook rejected or failed
 * ({@code apiserver_admission_webhook_rejection_count}, by {@code error_type}), and the failures
 * let through by {@code failurePolicy: Ignore} ({@code apiserver_admission_webhook_fail_open_count}).
 */
final class WebhookMetrics {
    static final String NO_ERROR = "no_error";
    static final String CALLING_WEBHOOK_ERROR = "calling_webhook_error";
    static final String APISERVER_INTERNAL_ERROR = "apiserver_internal_error";
    /** No metrics: for tests. */
    static final WebhookMetrics NONE = new WebhookMetrics(null);

    private final Histogram latency;
    private final Counter requests;
    private final Gauge rejections;
    private final Gauge failOpen;

    WebhookMetrics(MetricsRegistry registry) {
        if (registry == null) {
            latency = null;
            requests = null;
            rejections = null;
            failOpen = null;
            return;
        }
        latency = registry.histogram("apiserver_admission_webhook_admission_duration_seconds",
                "Admission webhook latency histogram in seconds, identified by name and broken out for each operation and API resource and type (validate or admit).",
                List.of(0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10.0, 25.0), List.of("name", "type", "operation", "rejected"));
        requests = registry.counter("apiserver_admission_webhook_request",
                "Admission webhook request total, identified by name and broken out for each admission type (validating or mutating) and operation. Additional labels specify whether the request was rejected or not and an HTTP status code. Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.",
                List.of("name", "type", "operation", "code", "rejected"));
        // kube's two counters named *_count are exposed without _total, which a counter here would get:
        // gauges that only go up keep the names its dashboards and alerts query.
        rejections = registry.gauge("apiserver_admission_webhook_rejection_count",
                "Admission webhook rejection count, identified by name and broken out for each admission type (validating or admit) and operation. Additional labels specify an error type (calling_webhook_error or apiserver_internal_error if an error occurred; no_error otherwise) and optionally a non-zero rejection code if the webhook rejects the request with an HTTP status code (honored by the apiserver when the code is greater or equal to 400). Codes greater than 600 are truncated to 600, to keep the metrics cardinality bounded.",
                List.of("name", "type", "operation", "error_type", "rejection_code"));
        failOpen = registry.gauge("apiserver_admission_webhook_fail_open_count",
                "Admission webhook fail open count, identified by name and broken out for each admission type (validating or mutating).",
                List.of("name", "type"));
    }

    static String type(boolean mutating) {
        return mutating ? "admit" : "validate";
    }

    /** One call of a webhook, answered with {@code code} (0: no answer) after {@code nanos}. */
    void call(String name, String type, String operation, boolean rejected, int code, long nanos) {
        if (latency == null) {
            return;
        }
        String r = Boolean.toString(rejected);
        requests.inc(name, type, operation, Integer.toString(Math.min(code, 600)), r);
        latency.observe(nanos / 1e9, name, type, operation, r);
    }

    /** A request the webhook rejected ({@link #NO_ERROR}) or that failed with the webhook. */
    void rejection(String name, String type, String operation, String errorType, int code) {
        if (rejections != null) {
            rejections.add(1, name, type, operation, errorType, Integer.toString(Math.min(code, 600)));
        }
    }

    /** A failed call let through because the webhook ignores failures. */
    void failOpen(String name, String type) {
        if (failOpen != null) {
            failOpen.add(1, name, type);
        }
    }
}
