package io.kubelix.support.webhook.validation;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.NameValidators;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * kube's validation of a webhook's {@code clientConfig} (k8s.io/apiserver's {@code util/webhook}),
 * shared by admission webhook configurations and CRD conversion webhooks: exactly one of
 * {@code url} (https, with a host, without user information, query or fragment) and
 * {@code service} (name, namespace, a valid port and path), and a {@code caBundle} that holds a
 * certificate. Messages are kube's.
 */
public final class ClientConfigValidation {
    /** What kube appends to the URL errors a wrong form causes. */
    private static final String FORM = "; desired format: https://host[/path]";
    private static final Pattern PEM_BLOCK = Pattern.compile(
            "-----BEGIN ([^-\\r\\n]*)-----\\r?\\n(.*?)-----END \\1-----", Pattern.DOTALL);

    private ClientConfigValidation() {
    }

    /** The {@code url} or {@code service} of {@code cc}, at field path {@code p}; its {@code caBundle} is {@link #caBundle}'s. */
    public static List<FieldError> clientConfig(JsonNode cc, String p) {
        JsonNode url = cc.get("url");
        JsonNode service = cc.get("service");
        boolean hasUrl = url != null && !url.isNull();
        boolean hasService = service != null && !service.isNull();
        if (hasUrl == hasService) {
            return List.of(FieldError.required(p, "exactly one of url or service is required"));
        }
        return hasUrl ? url(url.asText(), p + ".url") : service(service, p + ".service");
    }

    /** kube's ValidateWebhookURL with https required. */
    public static List<FieldError> url(String url, String p) {
        List<FieldError> errs = new ArrayList<>();
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            return List.of(FieldError.required(p, "url must be a valid URL: parse \"" + url + "\": " + e.getReason() + FORM));
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme();
        if (!scheme.equals("https")) {
            errs.add(FieldError.invalid(p, scheme, "'https' is the only allowed URL scheme" + FORM));
        }
        String host = u.getRawAuthority() == null ? "" : u.getRawAuthority().replaceFirst("^.*@", "");
        if (host.isEmpty()) {
            errs.add(FieldError.invalid(p, host, "host must be specified" + FORM));
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

    /** kube's ValidateWebhookService: the port defaults to 443, the path is DNS-1123 subdomains between slashes. */
    public static List<FieldError> service(JsonNode service, String p) {
        List<FieldError> errs = new ArrayList<>();
        if (service.path("name").asText("").isEmpty()) {
            errs.add(FieldError.required(p + ".name", ""));
        }
        if (service.path("namespace").asText("").isEmpty()) {
            errs.add(FieldError.required(p + ".namespace", ""));
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

    /**
     * kube's ValidateCABundle: the bundle (base64 in JSON) must hold at least one certificate a TLS
     * client would trust; the message is client-go's for the first thing that stops it.
     */
    public static List<FieldError> caBundle(String base64, String p) {
        byte[] pem;
        try {
            pem = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            return List.of(FieldError.invalid(p, base64, "illegal base64 data: " + e.getMessage()));
        }
        String problem = caBundleProblem(new String(pem, StandardCharsets.US_ASCII));
        return problem == null ? List.of() : List.of(FieldError.invalid(p, base64, problem));
    }

    /** null when one block is a certificate Java reads (crypto/x509's AppendCertsFromPEM succeeds), else client-go's reason. */
    private static String caBundleProblem(String pem) {
        if (pem.isEmpty()) {
            return null;
        }
        String firstFailure = null;
        String rest = pem;
        while (!rest.isEmpty()) {
            Matcher m = PEM_BLOCK.matcher(rest);
            if (!m.find()) {
                return firstFailure != null ? firstFailure : "unable to parse bytes as PEM block";
            }
            rest = rest.substring(m.end());
            String body = m.group(2);
            // PEM headers ("Key: value" lines before a blank line) make the block no certificate for crypto/x509
            if (!m.group(1).equals("CERTIFICATE") || body.lines().findFirst().orElse("").contains(":")) {
                continue;
            }
            try {
                byte[] der = Base64.getMimeDecoder().decode(body);
                CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(der));
                return null;
            } catch (IllegalArgumentException | CertificateException e) {
                if (firstFailure == null) {
                    firstFailure = "failed to parse certificate: " + e.getMessage();
                }
            }
        }
        return firstFailure != null ? firstFailure : "no valid certificate authority data seen";
    }
}
