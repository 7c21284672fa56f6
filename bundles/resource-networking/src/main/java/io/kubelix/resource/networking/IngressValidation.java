package io.kubelix.resource.networking;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.core.v1.PodTemplateValidation;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.NameValidators;
import io.kubelix.support.net.IP;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * kube's ingress validation (pkg/apis/networking/validation): ValidateIngressSpec with its rules,
 * hosts, HTTP paths and path types, backends, TLS and class, the class annotation, and the load
 * balancer status, with kube's field paths and words.
 */
final class IngressValidation {
    static final String CLASS_ANNOTATION = "kubernetes.io/ingress.class";
    static final List<String> PATH_TYPES = List.of("Exact", "ImplementationSpecific", "Prefix");
    private static final String[] INVALID_PATH_SEQUENCES = {"//", "/./", "/../", "%2f", "%2F"};
    private static final String[] INVALID_PATH_SUFFIXES = {"/..", "/."};
    private static final String DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
    private static final Pattern DNS1035_LABEL = Pattern.compile(DNS1035_LABEL_FMT);
    private static final String WILDCARD_FMT = "\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
    private static final Pattern WILDCARD = Pattern.compile(WILDCARD_FMT);

    private IngressValidation() {
    }

    /** ValidateIngressCreate: the spec, and not both the class field and the class annotation. */
    static List<FieldError> create(ObjectNode ingress) {
        List<FieldError> errs = new ArrayList<>(spec(ingress.path("spec"), "spec", false));
        errs.addAll(classAnnotation(ingress));
        return errs;
    }

    /**
     * ValidateIngressUpdate: the spec, with TLS secret names left unchecked when the stored ingress
     * already has an invalid one (kube keeps such objects updatable).
     */
    static List<FieldError> update(ObjectNode ingress, ObjectNode old) {
        boolean allowInvalidSecretName = false;
        for (JsonNode tls : old.path("spec").path("tls")) {
            String secret = tls.path("secretName").asText("");
            allowInvalidSecretName |= !secret.isEmpty() && !NameValidators.isDNS1123Subdomain(secret).isEmpty();
        }
        return spec(ingress.path("spec"), "spec", allowInvalidSecretName);
    }

    private static List<FieldError> classAnnotation(ObjectNode ingress) {
        JsonNode annotation = ingress.path("metadata").path("annotations").get(CLASS_ANNOTATION);
        if (annotation != null && ingress.path("spec").hasNonNull("ingressClassName")) {
            return List.of(FieldError.invalid("annotations." + CLASS_ANNOTATION, annotation.asText(),
                    "can not be set when the class field is also set"));
        }
        return List.of();
    }

    /** ValidateIngressSpec. */
    static List<FieldError> spec(JsonNode spec, String path, boolean allowInvalidSecretName) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode rules = spec.get("rules");
        boolean hasDefault = spec.hasNonNull("defaultBackend");
        if ((rules == null || rules.isEmpty()) && !hasDefault) {
            String value = rules == null || rules.isNull() ? "[]networking.IngressRule(nil)" : "[]networking.IngressRule{}";
            errs.add(FieldError.invalid(path, new GoSyntax(value), "either `defaultBackend` or `rules` must be specified"));
        }
        if (hasDefault) {
            errs.addAll(backend(spec.get("defaultBackend"), path + ".defaultBackend"));
        }
        if (rules != null && !rules.isEmpty()) {
            errs.addAll(rules(rules, path + ".rules"));
        }
        errs.addAll(tls(spec.path("tls"), path + ".tls", allowInvalidSecretName));
        JsonNode className = spec.get("ingressClassName");
        if (className != null && className.isTextual()) {
            NameValidators.isDNS1123Subdomain(className.asText()).forEach(m ->
                    errs.add(FieldError.invalid(path + ".ingressClassName", className.asText(), m)));
        }
        return errs;
    }

    private static List<FieldError> rules(JsonNode rules, String path) {
        List<FieldError> errs = new ArrayList<>();
        for (int i = 0; i < rules.size(); i++) {
            JsonNode rule = rules.get(i);
            String host = rule.path("host").asText("");
            String hostPath = path + "[" + i + "].host";
            if (!host.isEmpty()) {
                if (IP.parseIPSloppy(host) != null) {
                    errs.add(FieldError.invalid(hostPath, host, "must be a DNS name, not an IP address"));
                }
                List<String> msgs = host.contains("*") ? wildcardErrors(host) : NameValidators.isDNS1123Subdomain(host);
                msgs.forEach(m -> errs.add(FieldError.invalid(hostPath, host, m)));
            }
            if (rule.hasNonNull("http")) {
                errs.addAll(http(rule.get("http"), path + "[" + i + "].http"));
            }
        }
        return errs;
    }

    private static List<FieldError> http(JsonNode http, String path) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode paths = http.path("paths");
        if (paths.isEmpty()) {
            errs.add(FieldError.required(path + ".paths", ""));
        }
        for (int i = 0; i < paths.size(); i++) {
            errs.addAll(httpPath(paths.get(i), path + ".paths[" + i + "]"));
        }
        return errs;
    }

    /** validateHTTPIngressPath: a path type, an absolute clean path for Exact and Prefix, a backend. */
    private static List<FieldError> httpPath(JsonNode p, String path) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode pathType = p.get("pathType");
        if (pathType == null || pathType.isNull()) {
            errs.add(FieldError.required(path + ".pathType", "pathType must be specified"));
            return errs;
        }
        String value = p.path("path").asText("");
        switch (pathType.asText()) {
            case "Exact", "Prefix" -> {
                if (!value.startsWith("/")) {
                    errs.add(FieldError.invalid(path + ".path", value, "must be an absolute path"));
                }
                if (!value.isEmpty()) {
                    for (String seq : INVALID_PATH_SEQUENCES) {
                        if (value.contains(seq)) {
                            errs.add(FieldError.invalid(path + ".path", value, "must not contain '" + seq + "'"));
                        }
                    }
                    for (String suffix : INVALID_PATH_SUFFIXES) {
                        if (value.endsWith(suffix)) {
                            errs.add(FieldError.invalid(path + ".path", value, "cannot end with '" + suffix + "'"));
                        }
                    }
                }
            }
            case "ImplementationSpecific" -> {
                if (!value.isEmpty() && !value.startsWith("/")) {
                    errs.add(FieldError.invalid(path + ".path", value, "must be an absolute path"));
                }
            }
            default -> errs.add(FieldError.notSupported(path + ".pathType", pathType.asText(), PATH_TYPES));
        }
        errs.addAll(backend(p.path("backend"), path + ".backend"));
        return errs;
    }

    /** validateIngressBackend: exactly one of a resource or a service with a port name or number. */
    static List<FieldError> backend(JsonNode backend, String path) {
        List<FieldError> errs = new ArrayList<>();
        boolean resource = backend.hasNonNull("resource");
        boolean service = backend.hasNonNull("service");
        if (resource && service) {
            errs.add(FieldError.invalid(path, "", "cannot set both resource and service backends"));
            return errs;
        }
        if (resource) {
            JsonNode r = backend.get("resource");
            return typedLocalObjectReference(r, path + ".resource");
        }
        if (!service) {
            errs.add(FieldError.invalid(path, "", "resource or service backend is required"));
            return errs;
        }
        JsonNode s = backend.get("service");
        String name = s.path("name").asText("");
        if (name.isEmpty()) {
            errs.add(FieldError.required(path + ".service.name", ""));
        } else {
            dns1035LabelErrors(name).forEach(m -> errs.add(FieldError.invalid(path + ".service.name", name, m)));
        }
        String portName = s.path("port").path("name").asText("");
        long portNumber = s.path("port").path("number").asLong(0);
        if (!portName.isEmpty() && portNumber != 0) {
            errs.add(FieldError.invalid(path, "", "cannot set both port name & port number"));
        } else if (!portName.isEmpty()) {
            PodTemplateValidation.isValidPortName(portName).forEach(m ->
                    errs.add(FieldError.invalid(path + ".service.port.name", portName, m)));
        } else if (portNumber != 0) {
            if (!Ports.validPort(portNumber)) {
                errs.add(FieldError.invalid(path + ".service.port.number", portNumber, Ports.PORT_RANGE));
            }
        } else {
            errs.add(FieldError.required(path, "port name or number is required"));
        }
        return errs;
    }

    /** validateIngressTypedLocalObjectReference: an optional API group, a kind and a name usable in a path. */
    static List<FieldError> typedLocalObjectReference(JsonNode ref, String path) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode apiGroup = ref.get("apiGroup");
        if (apiGroup != null && apiGroup.isTextual()) {
            NameValidators.isDNS1123Subdomain(apiGroup.asText()).forEach(m ->
                    errs.add(FieldError.invalid(path + ".apiGroup", apiGroup.asText(), m)));
        }
        for (String field : new String[] {"kind", "name"}) {
            String value = ref.path(field).asText("");
            if (value.isEmpty()) {
                errs.add(FieldError.required(path + "." + field, field + " is required"));
            } else {
                NameValidators.isValidPathSegmentName(value).forEach(m -> errs.add(FieldError.invalid(path + "." + field, value, m)));
            }
        }
        return errs;
    }

    private static List<FieldError> tls(JsonNode tls, String path, boolean allowInvalidSecretName) {
        List<FieldError> errs = new ArrayList<>();
        for (int i = 0; i < tls.size(); i++) {
            String p = path + "[" + i + "]";
            JsonNode hosts = tls.get(i).path("hosts");
            for (int j = 0; j < hosts.size(); j++) {
                String host = hosts.get(j).asText("");
                String hostPath = p + ".hosts[" + j + "]";
                List<String> msgs = host.contains("*") ? wildcardErrors(host) : NameValidators.isDNS1123Subdomain(host);
                msgs.forEach(m -> errs.add(FieldError.invalid(hostPath, host, m)));
            }
            String secret = tls.get(i).path("secretName").asText("");
            if (!secret.isEmpty() && !allowInvalidSecretName) {
                NameValidators.isDNS1123Subdomain(secret).forEach(m -> errs.add(FieldError.invalid(p + ".secretName", secret, m)));
            }
        }
        return errs;
    }

    /** ValidateIngressStatusUpdate: load balancer IPs are IPs, hostnames DNS names. */
    static List<FieldError> status(JsonNode status) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode ingress = status.path("loadBalancer").path("ingress");
        for (int i = 0; i < ingress.size(); i++) {
            String p = "status.loadBalancer.ingress[" + i + "]";
            String ip = ingress.get(i).path("ip").asText("");
            if (!ip.isEmpty() && IP.parseIPSloppy(ip) == null) {
                errs.add(FieldError.invalid(p + ".ip", ip, "must be a valid IP address"));
            }
            String hostname = ingress.get(i).path("hostname").asText("");
            if (!hostname.isEmpty()) {
                NameValidators.isDNS1123Subdomain(hostname).forEach(m -> errs.add(FieldError.invalid(p + ".hostname", hostname, m)));
                if (IP.parseIPSloppy(hostname) != null) {
                    errs.add(FieldError.invalid(p + ".hostname", hostname, "must be a DNS name, not an IP address"));
                }
            }
        }
        return errs;
    }

    /** IsWildcardDNS1123Subdomain. */
    static List<String> wildcardErrors(String host) {
        List<String> errs = new ArrayList<>();
        if (host.length() > NameValidators.DNS1123_SUBDOMAIN_MAX_LENGTH) {
            errs.add("must be no more than " + NameValidators.DNS1123_SUBDOMAIN_MAX_LENGTH + " characters");
        }
        if (!WILDCARD.matcher(host).matches()) {
            errs.add("a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must "
                    + "consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character "
                    + "(e.g. '*.example.com', regex used for validation is '" + WILDCARD_FMT + "')");
        }
        return errs;
    }

    /** IsDNS1035Label, as kube validates a service name. */
    static List<String> dns1035LabelErrors(String name) {
        List<String> errs = new ArrayList<>();
        if (name.length() > NameValidators.DNS1123_LABEL_MAX_LENGTH) {
            errs.add("must be no more than " + NameValidators.DNS1123_LABEL_MAX_LENGTH + " characters");
        }
        if (!DNS1035_LABEL.matcher(name).matches()) {
            errs.add("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
                    + "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "
                    + "regex used for validation is '" + DNS1035_LABEL_FMT + "')");
        }
        return errs;
    }
}
