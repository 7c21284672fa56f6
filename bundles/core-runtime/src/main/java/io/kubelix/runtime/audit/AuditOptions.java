package io.kubelix.runtime.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubelix.runtime.metrics.AuditMetrics;
import io.kubelix.runtime.server.Settings;
import io.kubelix.support.time.GoDuration;
import io.kubelix.support.webhook.CABundleTrust;
import io.kubelix.support.webhook.WebhookKubeconfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * kube-apiserver's audit flags ({@code pkg/server/options/audit.go}), read from the settings, checked
 * with kube's messages and turned into the policy evaluator and the backends. Without
 * {@code --audit-policy-file} nothing is audited; an invalid policy or flag stops the server.
 *
 * <p>The flags: {@code --audit-policy-file}; the log backend's {@code --audit-log-path} ({@code -}
 * for standard output), {@code --audit-log-maxage}, {@code -maxbackup}, {@code -maxsize},
 * {@code --audit-log-format} (json, legacy) and {@code --audit-log-mode} (blocking, the default;
 * blocking-strict; batch); the webhook backend's {@code --audit-webhook-config-file},
 * {@code --audit-webhook-initial-backoff} and {@code --audit-webhook-mode} (batch, the default);
 * and each backend's {@code --audit-<log|webhook>-batch-buffer-size}, {@code -batch-max-size},
 * {@code -batch-max-wait}, {@code -batch-throttle-enable}, {@code -batch-throttle-qps} and
 * {@code -batch-throttle-burst}.
 */
public final class AuditOptions {
    private static final Logger LOG = LoggerFactory.getLogger(AuditOptions.class);
    static final String BATCH = "batch";
    static final String BLOCKING = "blocking";
    static final String BLOCKING_STRICT = "blocking-strict";
    private static final List<String> MODES = List.of(BATCH, BLOCKING, BLOCKING_STRICT);

    /**
     * What auditing needs: the policy's evaluator and where events go.
     *
     * @param evaluator the policy
     * @param backend   the log and webhook backends
     * @param metrics   the {@code apiserver_audit_*} metrics
     */
    public record Audit(PolicyRuleEvaluator evaluator, AuditBackend backend, AuditMetrics metrics) {
    }

    private AuditOptions() {
    }

    /**
     * The auditing the settings ask for, or null when none (no policy file, or no backend).
     *
     * @throws IllegalArgumentException with kube's message when a flag or the policy is invalid
     */
    public static Audit build(Settings settings, AuditMetrics metrics) {
        // 1. Check the backends' flags, as AuditOptions.Validate does.
        String logPath = settings.get("audit-log-path", "");
        String webhookFile = settings.get("audit-webhook-config-file", "");
        List<String> errors = new ArrayList<>();
        BufferedBackend.BatchConfig logBatch = null;
        BufferedBackend.BatchConfig webhookBatch = null;
        String logMode = settings.get("audit-log-mode", BLOCKING);
        String webhookMode = settings.get("audit-webhook-mode", BATCH);
        EventFormat format = EventFormat.json;
        int maxAge = 0;
        int maxBackups = 0;
        int maxSize = 0;
        if (!logPath.isEmpty()) {
            logBatch = batchOptions(settings, LogBackend.PLUGIN, logMode, logBatchDefaults(), errors);
            checkVersion(settings, "audit-log-version", errors);
            try {
                format = EventFormat.named(settings.get("audit-log-format", "json"));
            } catch (IllegalArgumentException e) {
                errors.add(e.getMessage());
            }
            maxAge = nonNegative(settings, "audit-log-maxage", errors);
            maxBackups = nonNegative(settings, "audit-log-maxbackup", errors);
            maxSize = nonNegative(settings, "audit-log-maxsize", errors);
        }
        Duration initialBackoff = Duration.ofSeconds(10);
        if (!webhookFile.isEmpty()) {
            webhookBatch = batchOptions(settings, WebhookBackend.PLUGIN, webhookMode, webhookBatchDefaults(), errors);
            checkVersion(settings, "audit-webhook-version", errors);
            initialBackoff = duration(settings, "audit-webhook-initial-backoff", "10s", errors);
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", errors));
        }

        // 2. The policy.
        String policyFile = settings.get("audit-policy-file", "");
        PolicyRuleEvaluator evaluator = null;
        if (!policyFile.isEmpty()) {
            try {
                evaluator = new PolicyRuleEvaluator(PolicyReader.read(Path.of(policyFile)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("loading audit policy file: " + e.getMessage());
            }
        }
        if (evaluator == null) {
            if (!logPath.isEmpty() || !webhookFile.isEmpty()) {
                LOG.info("No audit policy file provided, no events will be recorded for the audit backends");
            }
            return null;
        }

        // 3. The log backend, then 4. the webhook's.
        List<AuditBackend> backends = new ArrayList<>();
        if (!logPath.isEmpty()) {
            LogBackend.Output out;
            if (logPath.equals("-")) {
                out = LogBackend.stdout();
            } else {
                try {
                    out = LogBackend.file(new RotatingFile(Path.of(logPath), maxSize, maxAge, maxBackups));
                } catch (IOException e) {
                    throw new IllegalArgumentException("ensureLogFile: " + e.getMessage());
                }
            }
            backends.add(wrap(new LogBackend(out, format, metrics), logMode, logBatch, metrics, "log"));
        }
        if (!webhookFile.isEmpty()) {
            WebhookKubeconfig target;
            HttpClient client;
            try {
                target = WebhookKubeconfig.read(Path.of(webhookFile), new ObjectMapper(new YAMLFactory()),
                        "audit webhook config file");
                client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                        .sslContext(CABundleTrust.sslContext(target.caPem(),
                                target.server().getHost().replaceAll("^\\[|]$", "")))
                        .build();
            } catch (IllegalArgumentException | GeneralSecurityException e) {
                throw new IllegalArgumentException("initializing audit webhook: " + e.getMessage());
            }
            backends.add(wrap(new WebhookBackend(target, client, initialBackoff, metrics), webhookMode, webhookBatch,
                    metrics, "webhook"));
        }
        if (backends.isEmpty()) {
            return null;
        }
        AuditBackend backend = AuditBackend.union(backends);
        LOG.info("auditing with the policy of {} to {}", policyFile, backend);
        return new Audit(evaluator, backend, metrics);
    }

    /** AuditBatchOptions.wrapBackend: blocking reports failures only; blocking-strict refuses; batch buffers. */
    private static AuditBackend wrap(AuditBackend delegate, String mode, BufferedBackend.BatchConfig batch,
                                     AuditMetrics metrics, String name) {
        return switch (mode) {
            case BLOCKING_STRICT -> delegate;
            case BLOCKING -> new AuditBackend() {
                @Override
                public boolean processEvents(List<Event> events) {
                    delegate.processEvents(events);
                    return true;
                }

                @Override
                public void shutdown() {
                    delegate.shutdown();
                }

                @Override
                public String toString() {
                    return "ignoreErrors<" + delegate + ">";
                }
            };
            default -> new BufferedBackend(delegate, batch, metrics, name);
        };
    }

    /** The log backend's batching: one event at a time, written by one thread (defaultLogBatchConfig). */
    static BufferedBackend.BatchConfig logBatchDefaults() {
        return new BufferedBackend.BatchConfig(10_000, 1, Duration.ZERO, 0, 0, false);
    }

    /** The webhook's: batches of 400 at least every 30 s, at most 10 a second (defaultWebhookBatchConfig). */
    static BufferedBackend.BatchConfig webhookBatchDefaults() {
        return new BufferedBackend.BatchConfig(10_000, 400, Duration.ofSeconds(30), 10, 15, true);
    }

    /** validateBackendBatchOptions, with kube's messages. */
    private static BufferedBackend.BatchConfig batchOptions(Settings settings, String plugin, String mode,
                                                            BufferedBackend.BatchConfig defaults, List<String> errors) {
        if (!MODES.contains(mode)) {
            errors.add("invalid audit " + plugin + " mode " + mode + ", allowed modes are \"" + String.join(",", MODES)
                    + "\"");
            return defaults;
        }
        String p = "audit-" + plugin + "-batch-";
        int bufferSize = integer(settings, p + "buffer-size", defaults.bufferSize(), errors);
        int maxSize = integer(settings, p + "max-size", defaults.maxBatchSize(), errors);
        Duration maxWait = duration(settings, p + "max-wait", defaults.maxBatchWait().toSeconds() + "s", errors);
        boolean throttle = Boolean.parseBoolean(settings.get(p + "throttle-enable",
                Boolean.toString(defaults.throttleQPS() > 0)));
        double qps = number(settings, p + "throttle-qps", defaults.throttleQPS(), errors);
        int burst = integer(settings, p + "throttle-burst", defaults.throttleBurst(), errors);
        if (!mode.equals(BATCH)) {
            return defaults;
        }
        if (bufferSize <= 0) {
            errors.add("invalid audit batch " + plugin + " buffer size " + bufferSize + ", must be a positive number");
        } else if (maxSize <= 0) {
            errors.add("invalid audit batch " + plugin + " max batch size " + maxSize + ", must be a positive number");
        } else if (throttle && qps <= 0) {
            errors.add("invalid audit batch " + plugin + " throttle QPS " + fmt(qps) + ", must be a positive number");
        } else if (throttle && burst <= 0) {
            errors.add("invalid audit batch " + plugin + " throttle burst " + burst + ", must be a positive number");
        }
        return new BufferedBackend.BatchConfig(Math.max(1, bufferSize), Math.max(1, maxSize), maxWait,
                throttle ? qps : 0, burst, defaults.asyncDelegate());
    }

    private static void checkVersion(Settings settings, String name, List<String> errors) {
        String v = settings.get(name, PolicyReader.API_VERSION);
        if (!v.equals(PolicyReader.API_VERSION)) {
            errors.add("invalid group version, allowed versions are \"[" + PolicyReader.API_VERSION + "]\"");
        }
    }

    private static int nonNegative(Settings settings, String name, List<String> errors) {
        int v = integer(settings, name, 0, errors);
        if (v < 0) {
            errors.add("--" + name + " " + v + " can't be a negative number");
        }
        return v;
    }

    private static int integer(Settings settings, String name, int defaultValue, List<String> errors) {
        String v = settings.get(name, Integer.toString(defaultValue));
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            errors.add("invalid argument \"" + v + "\" for \"--" + name + "\" flag: strconv.ParseInt: parsing \"" + v
                    + "\": invalid syntax");
            return defaultValue;
        }
    }

    private static double number(Settings settings, String name, double defaultValue, List<String> errors) {
        String v = settings.get(name, fmt(defaultValue));
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            errors.add("invalid argument \"" + v + "\" for \"--" + name + "\" flag: strconv.ParseFloat: parsing \"" + v
                    + "\": invalid syntax");
            return defaultValue;
        }
    }

    private static Duration duration(Settings settings, String name, String defaultValue, List<String> errors) {
        String v = settings.get(name, defaultValue);
        try {
            return GoDuration.parse(v);
        } catch (IllegalArgumentException e) {
            errors.add("invalid argument \"" + v + "\" for \"--" + name + "\" flag: " + e.getMessage());
            return GoDuration.parse(defaultValue);
        }
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
