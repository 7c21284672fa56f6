package io.kubelix.api.core.v1;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.MetadataValidators;
import io.kubelix.api.validation.NameValidators;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's ValidatePodTemplateSpec (pkg/apis/core/validation), for the rules users meet every day,
 * with kube's field paths and words: the template's labels and annotations, containers (at least
 * one; names required, DNS-1123 labels and unique across init and regular containers; image
 * required; pull and termination message policies; ports), volumes (names required and unique) and
 * the volume mounts naming them, restart and DNS policies, node selector. Run it on a defaulted
 * template, as kube validates after defaulting. Checks kube makes that are not here yet: resources
 * and quantities, probes, security contexts, volume sources, affinity, tolerations, topology spread.
 */
public final class PodTemplateValidation {
    static final List<String> PULL_POLICIES = List.of("Always", "IfNotPresent", "Never");
    static final List<String> TERMINATION_MESSAGE_POLICIES = List.of("File", "FallbackToLogsOnError");
    static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");
    static final List<String> RESTART_POLICIES = List.of("Always", "OnFailure", "Never");
    static final List<String> DNS_POLICIES = List.of("ClusterFirst", "ClusterFirstWithHostNet", "Default", "None");

    private PodTemplateValidation() {
    }

    /**
     * ValidatePodTemplateSpec.
     *
     * @param template the PodTemplateSpec ({@code metadata} and {@code spec}), or null when missing
     * @param path     its field path, such as {@code spec.template}
     */
    public static List<FieldError> validatePodTemplateSpec(JsonNode template, String path) {
        List<FieldError> errs = new ArrayList<>();
        if (template == null || template.isNull() || template.isMissingNode()) {
            errs.add(FieldError.required(path, ""));
            return errs;
        }
        // kube names the template's labels without "metadata": spec.template.labels.
        errs.addAll(MetadataValidators.validateLabels(template.path("metadata").get("labels"), path + ".labels"));
        errs.addAll(MetadataValidators.validateAnnotations(template.path("metadata").get("annotations"),
                path + ".annotations"));
        JsonNode spec = template.path("spec");
        errs.addAll(validatePodSpec(spec, path + ".spec"));
        if (!spec.path("ephemeralContainers").isEmpty()) {
            errs.add(FieldError.forbidden(path + ".spec.ephemeralContainers", "ephemeral containers not allowed in pod template"));
        }
        return errs;
    }

    /** ValidatePodSpec, for the rules listed on the class. */
    public static List<FieldError> validatePodSpec(JsonNode spec, String path) {
        List<FieldError> errs = new ArrayList<>();
        Set<String> volumes = validateVolumes(spec.path("volumes"), path + ".volumes", errs);
        Set<String> names = new HashSet<>();
        validateContainers(spec.path("initContainers"), path + ".initContainers", volumes, names, errs);
        if (spec.path("containers").isEmpty()) {
            errs.add(FieldError.required(path + ".containers", ""));
        } else {
            validateContainers(spec.path("containers"), path + ".containers", volumes, names, errs);
        }
        errs.addAll(oneOf(spec.path("restartPolicy").asText(""), path + ".restartPolicy", RESTART_POLICIES));
        errs.addAll(oneOf(spec.path("dnsPolicy").asText(""), path + ".dnsPolicy", DNS_POLICIES));
        errs.addAll(MetadataValidators.validateLabels(spec.get("nodeSelector"), path + ".nodeSelector"));
        return errs;
    }

    private static Set<String> validateVolumes(JsonNode list, String path, List<FieldError> errs) {
        Set<String> names = new HashSet<>();
        int i = 0;
        for (JsonNode v : list) {
            String p = path + "[" + i++ + "].name";
            String name = v.path("name").asText("");
            if (name.isEmpty()) {
                errs.add(FieldError.required(p, ""));
            } else {
                NameValidators.isDNS1123Label(name).forEach(m -> errs.add(FieldError.invalid(p, name, m)));
                if (!names.add(name)) {
                    errs.add(FieldError.duplicate(p, name));
                }
            }
        }
        return names;
    }

    private static void validateContainers(JsonNode list, String path, Set<String> volumes, Set<String> names,
                                           List<FieldError> errs) {
        int i = 0;
        for (JsonNode c : list) {
            String p = path + "[" + i++ + "]";
            String name = c.path("name").asText("");
            if (name.isEmpty()) {
                errs.add(FieldError.required(p + ".name", ""));
            } else {
                NameValidators.isDNS1123Label(name).forEach(m -> errs.add(FieldError.invalid(p + ".name", name, m)));
            }
            if (c.path("image").asText("").isEmpty()) {
                errs.add(FieldError.required(p + ".image", ""));
            }
            errs.addAll(oneOf(c.path("terminationMessagePolicy").asText(""), p + ".terminationMessagePolicy",
                    TERMINATION_MESSAGE_POLICIES));
            if (!name.isEmpty() && !names.add(name)) {
                errs.add(FieldError.duplicate(p + ".name", name));
            }
            validatePorts(c.path("ports"), p + ".ports", errs);
            validateEnv(c.path("env"), p + ".env", errs);
            validateVolumeMounts(c.path("volumeMounts"), p + ".volumeMounts", volumes, errs);
            errs.addAll(oneOf(c.path("imagePullPolicy").asText(""), p + ".imagePullPolicy", PULL_POLICIES));
        }
    }

    /** validateContainerPorts: port numbers, unique IANA service names, protocols. */
    private static void validatePorts(JsonNode ports, String path, List<FieldError> errs) {
        Set<String> names = new HashSet<>();
        int i = 0;
        for (JsonNode port : ports) {
            String p = path + "[" + i++ + "]";
            String name = port.path("name").asText("");
            if (!name.isEmpty()) {
                isValidPortName(name).forEach(m -> errs.add(FieldError.invalid(p + ".name", name, m)));
                if (!names.add(name)) {
                    errs.add(FieldError.duplicate(p + ".name", name));
                }
            }
            long containerPort = port.path("containerPort").asLong(0);
            if (containerPort == 0) {
                errs.add(FieldError.required(p + ".containerPort", ""));
            } else if (!validPort(containerPort)) {
                errs.add(FieldError.invalid(p + ".containerPort", containerPort, PORT_RANGE));
            }
            long hostPort = port.path("hostPort").asLong(0);
            if (hostPort != 0 && !validPort(hostPort)) {
                errs.add(FieldError.invalid(p + ".hostPort", hostPort, PORT_RANGE));
            }
            errs.addAll(oneOf(port.path("protocol").asText(""), p + ".protocol", PROTOCOLS));
        }
    }

    private static final String PORT_RANGE = "must be between 1 and 65535, inclusive";

    private static boolean validPort(long port) {
        return port >= 1 && port <= 65535;
    }

    /** apimachinery's IsValidPortName: an IANA_SVC_NAME (a named port, such as a service's targetPort). */
    public static List<String> isValidPortName(String port) {
        List<String> errs = new ArrayList<>();
        if (port.length() > 15) {
            errs.add("must be no more than 15 characters");
        }
        if (!port.matches("[-a-z0-9]+")) {
            errs.add("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
        }
        if (!port.matches(".*[a-z].*")) {
            errs.add("must contain at least one letter (a-z)");
        }
        if (port.contains("--")) {
            errs.add("must not contain consecutive hyphens");
        }
        if (port.startsWith("-") || port.endsWith("-")) {
            errs.add("must not begin or end with a hyphen");
        }
        return errs;
    }

    private static void validateEnv(JsonNode env, String path, List<FieldError> errs) {
        int i = 0;
        for (JsonNode e : env) {
            String p = path + "[" + i++ + "].name";
            String name = e.path("name").asText("");
            if (name.isEmpty()) {
                errs.add(FieldError.required(p, ""));
            } else if (name.contains("=") || !name.chars().allMatch(ch -> ch >= 32 && ch <= 126)) {
                errs.add(FieldError.invalid(p, name, "a valid environment variable name must consist only of "
                        + "printable ASCII characters other than '='"));
            }
        }
    }

    /** A mount names a volume of the pod and a path. */
    private static void validateVolumeMounts(JsonNode mounts, String path, Set<String> volumes, List<FieldError> errs) {
        int i = 0;
        for (JsonNode m : mounts) {
            String p = path + "[" + i++ + "]";
            String name = m.path("name").asText("");
            if (name.isEmpty()) {
                errs.add(FieldError.required(p + ".name", ""));
            } else if (!volumes.contains(name)) {
                errs.add(new FieldError(FieldError.Type.NOT_FOUND, p + ".name", name, null));
            }
            if (m.path("mountPath").asText("").isEmpty()) {
                errs.add(FieldError.required(p + ".mountPath", ""));
            }
        }
    }

    /** Required when empty, NotSupported when not one of {@code supported}. */
    static List<FieldError> oneOf(String value, String path, List<String> supported) {
        if (value.isEmpty()) {
            return List.of(FieldError.required(path, ""));
        }
        return supported.contains(value) ? List.of() : List.of(FieldError.notSupported(path, value, supported));
    }
}
