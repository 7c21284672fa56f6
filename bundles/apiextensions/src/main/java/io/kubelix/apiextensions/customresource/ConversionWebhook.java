package io.kubelix.apiextensions.customresource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.support.webhook.CABundleTrust;
import io.kubelix.support.webhook.ServiceResolver;
import io.kubelix.support.webhook.WebhookErrors;
import io.kubelix.support.webhook.WebhookTarget;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * A CRD's conversion webhook (kube's {@code webhookConverter}): objects not in the version wanted are
 * POSTed in one {@code ConversionReview} (v1, or v1beta1 when the CRD lists only that) to
 * {@code clientConfig.url} or its service, over HTTPS verified with {@code caBundle}. The answer is
 * checked as kube checks it (its uid, result, count, apiVersion and kind of each object); each
 * converted object keeps the original's metadata but for the labels and annotations the webhook
 * set. Any failure is kube's 500 {@code conversion webhook for <group>/<version>, Kind=<kind> failed: ...}.
 */
final class ConversionWebhook {
    /** kube's webhook client timeout for conversion. */
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final JsonNode clientConfig;
    private final String reviewVersion;
    private final ServiceResolver services;
    private final ObjectMapper json;
    private volatile HttpClient client;

    ConversionWebhook(JsonNode webhook, ServiceResolver services, ObjectMapper json) {
        this.clientConfig = webhook.path("clientConfig");
        List<String> versions = new ArrayList<>();
        webhook.path("conversionReviewVersions").forEach(v -> versions.add(v.asText()));
        // kube sends the first version of the CRD's list it understands
        this.reviewVersion = versions.stream().filter(v -> v.equals("v1") || v.equals("v1beta1")).findFirst().orElse("v1");
        this.services = services;
        this.json = json;
    }

    /**
     * {@code objects} in {@code apiVersion}: those already in it as they are, the others converted in one review.
     *
     * @param list whether the objects are a list's (kube's messages differ)
     */
    List<ObjectNode> convert(List<ObjectNode> objects, String apiVersion, boolean list) {
        List<ObjectNode> toConvert = objects.stream().filter(o -> !apiVersion.equals(o.path("apiVersion").asText())).toList();
        if (toConvert.isEmpty()) {
            return objects;
        }
        String gvk = gvk(toConvert.get(0));
        List<ObjectNode> converted = call(toConvert, apiVersion, gvk);
        List<ObjectNode> out = new ArrayList<>(objects.size());
        int next = 0;
        for (ObjectNode original : objects) {
            if (apiVersion.equals(original.path("apiVersion").asText())) {
                out.add(original);
                continue;
            }
            ObjectNode c = converted.get(next++);
            String at = list ? "converted object at index " + (next - 1) : "object at index 0";
            if (!apiVersion.equals(c.path("apiVersion").asText())) {
                throw failed(gvk + " returned invalid " + at + ": invalid groupVersion (expected " + apiVersion
                        + ", received " + c.path("apiVersion").asText() + ")");
            }
            if (!original.path("kind").asText().equals(c.path("kind").asText())) {
                throw failed(gvk + " returned invalid " + at + ": invalid kind (expected " + original.path("kind").asText()
                        + ", received " + c.path("kind").asText() + ")");
            }
            for (String field : List.of("name", "namespace", "uid")) {
                String e = original.path("metadata").path(field).asText("");
                String a = c.path("metadata").path(field).asText("");
                if (!e.equals(a)) {
                    throw failed(gvk + " returned invalid " + (list ? at : "object") + ": must have the same " + (field.equals("uid")
                            ? "UID" : field) + ": " + e + " != " + a);
                }
            }
            out.add(restoreObjectMeta(original, c));
        }
        return out;
    }

    private List<ObjectNode> call(List<ObjectNode> objects, String apiVersion, String gvk) {
        String uid = UUID.randomUUID().toString();
        ObjectNode review = json.createObjectNode().put("apiVersion", "apiextensions.k8s.io/" + reviewVersion)
                .put("kind", "ConversionReview");
        ObjectNode request = review.putObject("request").put("uid", uid).put("desiredAPIVersion", apiVersion);
        ArrayNode items = request.putArray("objects");
        objects.forEach(items::add);
        JsonNode answer;
        WebhookTarget target = target(gvk);
        try {
            HttpRequest post = HttpRequest.newBuilder(target.connect()).timeout(TIMEOUT)
                    .header("Content-Type", "application/json").header("Accept", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(review))).build();
            HttpResponse<byte[]> response = client(gvk, target.serverName()).send(post, HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() / 100 != 2) {
                throw failed(gvk + " failed: the server responded with the status code " + response.statusCode()
                        + " but did not return more information");
            }
            answer = json.readTree(response.body());
        } catch (IOException e) {
            throw failed(gvk + " failed: Post \"" + target.shown() + "\": " + WebhookErrors.describe(e, target.connect()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failed(gvk + " failed: Post \"" + target.shown() + "\": context canceled");
        }
        JsonNode response = answer.path("response");
        String expectedKind = "apiextensions.k8s.io/" + reviewVersion + ", Kind=ConversionReview";
        String gotKind = answer.path("apiVersion").asText() + ", Kind=" + answer.path("kind").asText();
        if (reviewVersion.equals("v1") && !expectedKind.equals(gotKind)) {
            throw failed(gvk + " failed: expected webhook response of " + expectedKind + ", got " + gotKind);
        }
        if (!response.isObject()) {
            throw failed(gvk + " failed: no response provided");
        }
        if (reviewVersion.equals("v1") && !uid.equals(response.path("uid").asText())) {
            throw failed(gvk + " failed: expected response.uid=\"" + uid + "\", got \"" + response.path("uid").asText() + "\"");
        }
        JsonNode result = response.path("result");
        if (!"Success".equals(result.path("status").asText())) {
            String message = result.path("message").asText("");
            throw failed(gvk + " failed: " + (message.isEmpty()
                    ? "response.result.status was '" + result.path("status").asText() + "', not 'Success'" : message));
        }
        JsonNode converted = response.path("convertedObjects");
        if (converted.size() != objects.size()) {
            throw failed(gvk + " returned " + converted.size() + " objects, expected " + objects.size());
        }
        List<ObjectNode> out = new ArrayList<>();
        for (JsonNode c : converted) {
            if (!c.isObject()) {
                throw failed(gvk + " returned invalid converted object at index " + out.size() + ": not an object");
            }
            out.add((ObjectNode) c);
        }
        return out;
    }

    /** kube's restoreObjectMeta: the original's metadata, with the labels and annotations the webhook returned. */
    private static ObjectNode restoreObjectMeta(ObjectNode original, ObjectNode converted) {
        ObjectNode meta = original.path("metadata").isObject() ? ((ObjectNode) original.get("metadata")).deepCopy()
                : converted.objectNode();
        JsonNode returned = converted.path("metadata");
        for (String field : List.of("labels", "annotations")) {
            if (returned.path(field).isObject()) {
                meta.set(field, returned.get(field));
            } else {
                meta.remove(field);
            }
        }
        converted.set("metadata", meta);
        return converted;
    }

    /** Where the webhook is: its URL, or its service resolved to a ready endpoint; and the name TLS checks. */
    private WebhookTarget target(String gvk) {
        try {
            return WebhookTarget.of(clientConfig, services);
        } catch (WebhookTarget.UnresolvedService e) {
            throw failed(gvk + " failed: Post \"" + e.shown() + "\": " + e.getMessage());
        }
    }

    private HttpClient client(String gvk, String serverName) {
        HttpClient c = client;
        if (c == null) {
            String caBundle = clientConfig.path("caBundle").asText("");
            try {
                byte[] ca = caBundle.isEmpty() ? null : Base64.getDecoder().decode(caBundle);
                c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10))
                        .sslContext(CABundleTrust.sslContext(ca, serverName)).build();
            } catch (GeneralSecurityException | IllegalArgumentException e) {
                throw failed(gvk + " failed: invalid caBundle: " + e.getMessage());
            }
            client = c;
        }
        return c;
    }

    /** The object's group version and kind as Go prints a GroupVersionKind. */
    private static String gvk(ObjectNode obj) {
        return obj.path("apiVersion").asText() + ", Kind=" + obj.path("kind").asText();
    }

    private static StatusException failed(String message) {
        return StatusException.internalError("conversion webhook for " + message, null);
    }
}
