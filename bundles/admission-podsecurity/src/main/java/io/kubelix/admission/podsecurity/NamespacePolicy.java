package io.kubelix.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.admission.podsecurity.LevelVersion.Level;
import io.kubelix.api.errors.FieldError;

import java.util.ArrayList;
import java.util.List;

/**
 * The levels a namespace's {@code pod-security.kubernetes.io/*} labels ask for, per mode (kube's
 * {@code api.Policy} and {@code PolicyToEvaluate}): a label that is not a level or version is an
 * error; enforce then stays at its default's version or fails closed to {@code restricted}, audit
 * and warn fail open to {@code privileged}; warn follows a stricter enforce level unless it is set.
 *
 * @param enforce refuses a violating pod
 * @param audit   logs a violation
 * @param warn    answers a violation with a warning
 * @param errors  the labels whose values are not valid, as kube's field errors
 */
record NamespacePolicy(LevelVersion enforce, LevelVersion audit, LevelVersion warn, List<FieldError> errors) {
    static final String PREFIX = "pod-security.kubernetes.io/";
    static final String ENFORCE = PREFIX + "enforce";
    static final String ENFORCE_VERSION = PREFIX + "enforce-version";
    static final String AUDIT = PREFIX + "audit";
    static final String AUDIT_VERSION = PREFIX + "audit-version";
    static final String WARN = PREFIX + "warn";
    static final String WARN_VERSION = PREFIX + "warn-version";

    private static final String LEVEL_ERROR = "must be one of privileged, baseline, restricted";
    private static final String VERSION_ERROR = "must be \"latest\" or \"v1.x\"";

    /** The policy of a namespace without labels: privileged at the latest version, in every mode. */
    static final NamespacePolicy DEFAULT = new NamespacePolicy(LevelVersion.PRIVILEGED_LATEST,
            LevelVersion.PRIVILEGED_LATEST, LevelVersion.PRIVILEGED_LATEST, List.of());

    /** The policy of {@code labels} (a namespace's {@code metadata.labels}, possibly missing) with kube's defaults. */
    static NamespacePolicy of(JsonNode labels) {
        return of(labels, DEFAULT);
    }

    /** The policy of {@code labels}, {@code defaults} standing for the labels not set. */
    static NamespacePolicy of(JsonNode labels, NamespacePolicy defaults) {
        LevelVersion enforce = defaults.enforce;
        LevelVersion audit = defaults.audit;
        LevelVersion warn = defaults.warn;
        List<FieldError> errors = new ArrayList<>();
        if (labels == null || !labels.isObject() || labels.isEmpty()) {
            return defaults;
        }
        boolean hasEnforceLevel = false;
        if (labels.has(ENFORCE)) {
            Level l = level(labels, ENFORCE, errors);
            enforce = enforce.withLevel(l == null ? Level.RESTRICTED : l);
            hasEnforceLevel = l != null;
        }
        if (labels.has(ENFORCE_VERSION)) {
            enforce = enforce.withVersion(version(labels, ENFORCE_VERSION, errors));
        }
        if (labels.has(AUDIT)) {
            Level l = level(labels, AUDIT, errors);
            audit = audit.withLevel(l == null ? Level.PRIVILEGED : l);
        }
        if (labels.has(AUDIT_VERSION)) {
            audit = audit.withVersion(version(labels, AUDIT_VERSION, errors));
        }
        boolean hasWarnLevel = labels.has(WARN);
        if (hasWarnLevel) {
            Level l = level(labels, WARN, errors);
            warn = warn.withLevel(l == null ? Level.PRIVILEGED : l);
        }
        boolean hasWarnVersion = labels.has(WARN_VERSION);
        if (hasWarnVersion) {
            warn = warn.withVersion(version(labels, WARN_VERSION, errors));
        }
        if (!hasWarnLevel && hasEnforceLevel && enforce.level().compareTo(warn.level()) > 0) {
            warn = hasWarnVersion ? warn.withLevel(enforce.level()) : enforce;
        }
        return new NamespacePolicy(enforce, audit, warn, List.copyOf(errors));
    }

    private static Level level(JsonNode labels, String key, List<FieldError> errors) {
        String value = labels.path(key).asText();
        Level l = Level.parse(value);
        if (l == null) {
            errors.add(FieldError.invalid(field(key), value, LEVEL_ERROR));
        }
        return l;
    }

    private static int version(JsonNode labels, String key, List<FieldError> errors) {
        String value = labels.path(key).asText();
        Integer v = LevelVersion.parseVersion(value);
        if (v == null) {
            errors.add(FieldError.invalid(field(key), value, VERSION_ERROR));
            return LevelVersion.LATEST;
        }
        return v;
    }

    private static String field(String key) {
        return "metadata.labels[" + key + "]";
    }

    /** Each mode at the same level and version, or privileged in both (kube's {@code Policy.Equivalent}). */
    boolean equivalent(NamespacePolicy other) {
        return equivalent(enforce, other.enforce) && equivalent(audit, other.audit) && equivalent(warn, other.warn);
    }

    private static boolean equivalent(LevelVersion a, LevelVersion b) {
        return a.level() == Level.PRIVILEGED && b.level() == Level.PRIVILEGED || a.equals(b);
    }

    boolean fullyPrivileged() {
        return enforce.level() == Level.PRIVILEGED && audit.level() == Level.PRIVILEGED
                && warn.level() == Level.PRIVILEGED;
    }
}
