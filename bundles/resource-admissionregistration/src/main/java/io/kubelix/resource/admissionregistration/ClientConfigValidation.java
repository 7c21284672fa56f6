package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.NameValidators;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/**
 * kube's ValidateWebhookClientConfig: exactly one of {@code url} (https, with a host, without user
 * information, query or fragment) and {@code service} (name, namespace, a valid port and path).
 */
final class ClientConfigValidation {

    private ClientConfigValidation() {
    }

    static List<FieldError> clientConfig(JsonNode cc, String p) {
        JsonNode url = cc.get("url");
        JsonNode service = cc.get("service");
        boolean hasUrl = url != null && !url.isNull();
        boolean hasService = service != null && !service.isNull();
        if (hasUrl == hasService) {
            return List.of(FieldError.required(p, "exactly one of url or service is required"));
        }
        return hasUrl ? url(url.asText(), p + ".url") : service(service, p + ".service");
    }

    static List<FieldError> url(String url, String p) {
        List<FieldError> errs = new ArrayList<>();
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            return List.of(FieldError.invalid(p, url, "parse \"" + url + "\": " + e.getReason()));
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme();
        if (!scheme.equals("https")) {
            errs.add(FieldError.invalid(p, scheme, "'https' is the only allowed URL scheme"));
        }
        String host = u.getRawAuthority() == null ? "" : u.getRawAuthority().replaceFirst("^.*@", "");
        if (host.isEmpty()) {
            errs.add(FieldError.invalid(p, host, "host must be specified"));
        }
        if (u.getRawUserInfo() != null) {
            errs.add(FieldError.invalid(p, u.getRawUserInfo(), "user information is not permitted in the URL"));
        }
        if (u.getRawFragment() != null && !u.getRawFragment().isEmpty()) {
            errs.add(FieldError.invalid(p, u.getRawFragment(), "fragments are not permitted in the URL"));
        }
        if (u.getRawQuery() != null && !u.getRawQuery().isEmpty()) {
            errs.add(FieldError.invalid(p, u.getRawQuery(), "query parameters are not permitted in the URL"));
        }
        return errs;
    }

    static List<FieldError> service(JsonNode service, String p) {
        List<FieldError> errs = new ArrayList<>();
        if (service.path("name").asText("").isEmpty()) {
            errs.add(FieldError.required(p + ".name", "service name is required"));
        }
        if (service.path("namespace").asText("").isEmpty()) {
            errs.add(FieldError.required(p + ".namespace", "service namespace is required"));
        }
        long port = service.path("port").asLong(443);
        if (port < 1 || port > 65535) {
            errs.add(FieldError.invalid(p + ".port", port, "port is not valid: must be between 1 and 65535, inclusive"));
        }
        JsonNode pathNode = service.get("path");
        if (pathNode == null || pathNode.isNull()) {
            return errs;
        }
        String path = pathNode.asText();
        if (path.isEmpty() || path.equals("/")) {
            return errs;
        }
        if (path.equals("//")) {
            errs.add(FieldError.invalid(p + ".path", path, "segment[0] may not be empty"));
            return errs;
        }
        if (!path.startsWith("/")) {
            errs.add(FieldError.invalid(p + ".path", path, "must start with a '/'"));
        }
        String check = path.substring(1);
        if (check.endsWith("/")) {
            check = check.substring(0, check.length() - 1);
        }
        String[] steps = check.split("/", -1);
        for (int i = 0; i < steps.length; i++) {
            if (steps[i].isEmpty()) {
                errs.add(FieldError.invalid(p + ".path", path, "segment[" + i + "] may not be empty"));
                continue;
            }
            for (String msg : NameValidators.isDNS1123Subdomain(steps[i])) {
                errs.add(FieldError.invalid(p + ".path", path, "segment[" + i + "]: " + msg));
            }
        }
        return errs;
    }
}
