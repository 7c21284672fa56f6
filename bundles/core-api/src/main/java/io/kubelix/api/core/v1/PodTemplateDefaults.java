package io.kubelix.api.core.v1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * kube's core/v1 defaulting (pkg/apis/core/v1/defaults.go) of what a pod template holds, as the
 * generated defaulters apply it inside apps/v1 and batch/v1 templates: the PodSpec
 * (SetDefaults_PodSpec), its containers (SetDefaults_Container, ports, probes, env field
 * references) and volumes. Pod-only defaults (SetDefaults_Pod: enableServiceLinks, requests from
 * limits) are not template defaults and are left to the pod strategy. Fields of the wrong JSON type
 * are left alone for validation to report.
 */
public final class PodTemplateDefaults {
    /** v1.DefaultTerminationGracePeriodSeconds. */
    public static final int TERMINATION_GRACE_PERIOD_SECONDS = 30;
    /** v1.DefaultSchedulerName. */
    public static final String DEFAULT_SCHEDULER = "default-scheduler";
    /** v1.TerminationMessagePathDefault. */
    public static final String TERMINATION_MESSAGE_PATH = "/dev/termination-log";
    /** The mode of files projected from secrets, config maps and the downward API: 0644. */
    private static final int DEFAULT_MODE = 0644;

    private PodTemplateDefaults() {
    }

    /** Defaults {@code template.spec} of a PodTemplateSpec; a missing spec is created, as Go's zero value is defaulted. */
    public static void setPodTemplateSpecDefaults(ObjectNode template) {
        JsonNode spec = template.get("spec");
        if (spec == null || spec.isNull()) {
            spec = template.putObject("spec");
        }
        if (spec instanceof ObjectNode s) {
            setPodSpecDefaults(s);
        }
    }

    /** SetDefaults_PodSpec and the defaults of everything in it. */
    public static void setPodSpecDefaults(ObjectNode spec) {
        putIfAbsent(spec, "dnsPolicy", "ClusterFirst");
        putIfAbsent(spec, "restartPolicy", "Always");
        if (!spec.hasNonNull("securityContext")) {
            spec.putObject("securityContext");
        }
        if (!spec.hasNonNull("terminationGracePeriodSeconds")) {
            spec.put("terminationGracePeriodSeconds", TERMINATION_GRACE_PERIOD_SECONDS);
        }
        putIfAbsent(spec, "schedulerName", DEFAULT_SCHEDULER);
        for (String list : new String[] {"initContainers", "containers"}) {
            objects(spec.get(list)).forEach(PodTemplateDefaults::setContainerDefaults);
        }
        objects(spec.get("volumes")).forEach(PodTemplateDefaults::setVolumeDefaults);
    }

    /** SetDefaults_Container with its ports, probes and environment. */
    static void setContainerDefaults(ObjectNode c) {
        if (!c.hasNonNull("imagePullPolicy") || c.get("imagePullPolicy").asText().isEmpty()) {
            c.put("imagePullPolicy", "latest".equals(imageTag(c.path("image").asText(""))) ? "Always" : "IfNotPresent");
        }
        putIfAbsent(c, "terminationMessagePath", TERMINATION_MESSAGE_PATH);
        putIfAbsent(c, "terminationMessagePolicy", "File");
        objects(c.get("ports")).forEach(p -> putIfAbsent(p, "protocol", "TCP"));
        for (String probe : new String[] {"livenessProbe", "readinessProbe", "startupProbe"}) {
            if (c.get(probe) instanceof ObjectNode p) {
                setProbeDefaults(p);
            }
        }
        for (JsonNode env : c.path("env")) {
            if (env.path("valueFrom").get("fieldRef") instanceof ObjectNode ref) {
                putIfAbsent(ref, "apiVersion", "v1");
            }
        }
    }

    /** SetDefaults_Probe and SetDefaults_HTTPGetAction. */
    private static void setProbeDefaults(ObjectNode p) {
        putIfAbsent(p, "timeoutSeconds", 1);
        putIfAbsent(p, "periodSeconds", 10);
        putIfAbsent(p, "successThreshold", 1);
        putIfAbsent(p, "failureThreshold", 3);
        if (p.get("httpGet") instanceof ObjectNode h) {
            putIfAbsent(h, "path", "/");
            putIfAbsent(h, "scheme", "HTTP");
        }
    }

    /**
     * SetDefaults_Volume (no source is an emptyDir) and the file modes of secret, configMap,
     * downwardAPI and projected volumes; a hostPath gets its empty type.
     */
    private static void setVolumeDefaults(ObjectNode v) {
        if (v.size() == 1 && v.has("name")) {
            v.putObject("emptyDir");
        }
        for (String source : new String[] {"secret", "configMap", "downwardAPI", "projected"}) {
            if (v.get(source) instanceof ObjectNode s) {
                putIfAbsent(s, "defaultMode", DEFAULT_MODE);
            }
        }
        if (v.get("hostPath") instanceof ObjectNode h) {
            putIfAbsent(h, "type", "");
        }
    }

    /**
     * The tag of an image reference as kube's ParseImageName reads it: {@code latest} when there
     * is neither tag nor digest, empty when there is only a digest.
     */
    static String imageTag(String image) {
        int at = image.indexOf('@');
        String name = at < 0 ? image : image.substring(0, at);
        int slash = name.lastIndexOf('/');
        int colon = name.lastIndexOf(':');
        if (colon > slash) {
            return name.substring(colon + 1);
        }
        return at < 0 ? "latest" : "";
    }

    private static void putIfAbsent(ObjectNode o, String field, String value) {
        if (!o.hasNonNull(field) || o.get(field).isTextual() && o.get(field).asText().isEmpty()) {
            o.put(field, value);
        }
    }

    private static void putIfAbsent(ObjectNode o, String field, int value) {
        if (!o.hasNonNull(field)) {
            o.put(field, value);
        }
    }

    private static java.util.List<ObjectNode> objects(JsonNode list) {
        java.util.List<ObjectNode> out = new java.util.ArrayList<>();
        if (list != null && list.isArray()) {
            list.forEach(e -> {
                if (e instanceof ObjectNode o) {
                    out.add(o);
                }
            });
        }
        return out;
    }
}
