package io.kubelix.resource.networking;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.NameValidators;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * kube's validateIngressClassSpec: a domain-prefixed controller name of at most 250 characters, and
 * a parameters reference with a kind, a name, and a namespace exactly when its scope is Namespace.
 */
final class IngressClassValidation {
    static final int MAX_CONTROLLER_LENGTH = 250;
    static final List<String> SCOPES = List.of("Cluster", "Namespace");
    private static final String HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
    private static final Pattern HTTP_PATH = Pattern.compile(HTTP_PATH_FMT);

    private IngressClassValidation() {
    }

    static List<FieldError> spec(JsonNode spec) {
        List<FieldError> errs = new ArrayList<>();
        String controller = spec.path("controller").asText("");
        if (controller.length() > MAX_CONTROLLER_LENGTH) {
            errs.add(FieldError.tooLong("spec.controller", controller, MAX_CONTROLLER_LENGTH));
        }
        errs.addAll(domainPrefixedPath(controller, "spec.controller"));
        if (spec.hasNonNull("parameters")) {
            errs.addAll(parameters(spec.get("parameters"), "spec.parameters"));
        }
        return errs;
    }

    /** IsDomainPrefixedPath: {@code example.com/path}. */
    private static List<FieldError> domainPrefixedPath(String value, String path) {
        if (value.isEmpty()) {
            return List.of(FieldError.required(path, ""));
        }
        String[] segments = value.split("/", 2);
        if (segments.length != 2 || segments[0].isEmpty() || segments[1].isEmpty()) {
            return List.of(FieldError.invalid(path, value, "must be a domain-prefixed path (such as \"acme.io/foo\")"));
        }
        List<FieldError> errs = new ArrayList<>();
        NameValidators.isDNS1123Subdomain(segments[0]).forEach(m -> errs.add(FieldError.invalid(path, segments[0], m)));
        if (!HTTP_PATH.matcher(segments[1]).matches()) {
            errs.add(FieldError.invalid(path, segments[1], "Invalid path (regex used for validation is '" + HTTP_PATH_FMT + "')"));
        }
        return errs;
    }

    /** validateIngressClassParametersReference: the reference, a supported scope, a namespace exactly for scope Namespace. */
    private static List<FieldError> parameters(JsonNode params, String path) {
        List<FieldError> errs = new ArrayList<>(IngressValidation.typedLocalObjectReference(params, path));
        JsonNode scope = params.get("scope");
        if (scope == null || scope.isNull()) {
            errs.add(FieldError.required(path + ".scope", ""));
            return errs;
        }
        JsonNode namespace = params.get("namespace");
        boolean hasNamespace = namespace != null && !namespace.isNull();
        if (!SCOPES.contains(scope.asText())) {
            errs.add(FieldError.notSupported(path + ".scope", scope.asText(), SCOPES));
        } else if (scope.asText().equals("Namespace")) {
            if (!hasNamespace) {
                errs.add(FieldError.required(path + ".namespace", "`parameters.scope` is set to 'Namespace'"));
            } else {
                NameValidators.isDNS1123Label(namespace.asText()).forEach(m ->
                        errs.add(FieldError.invalid(path + ".namespace", namespace.asText(), m)));
            }
        } else if (hasNamespace) {
            errs.add(FieldError.forbidden(path + ".namespace", "`parameters.scope` is set to 'Cluster'"));
        }
        return errs;
    }
}
