package io.kubelix.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusCause;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.support.admission.AdmissionRequests;
import io.kubelix.support.admission.VersionedAttributes;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code admission.k8s.io/v1} AdmissionReviews as kube-apiserver writes and reads them
 * (webhook/request): the request with a new uid per call, the kind and resource matched (the
 * request's, or an equivalent resource's in its version) beside those requested, the subresource, name, namespace, operation, user, old and new objects ({@code null}
 * where there is none), {@code dryRun} and the operation's options; the response checked as kube
 * checks it.
 */
final class AdmissionReviews {
    static final String API_VERSION = "admission.k8s.io/v1";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private AdmissionReviews() {
    }

    static ObjectNode request(VersionedAttributes v) {
        ObjectNode review = F.objectNode();
        review.put("kind", "AdmissionReview").put("apiVersion", API_VERSION);
        review.set("request", AdmissionRequests.withObjects(v));
        return review;
    }

    /**
     * The response of an AdmissionReview, checked as kube's {@code VerifyAdmissionResponse}.
     *
     * @param allowed  whether the webhook admits the request
     * @param status   the webhook's Status, or a missing node
     * @param patch    the JSON Patch to apply, or null
     * @param warnings warnings for the client
     */
    record Response(boolean allowed, JsonNode status, JsonNode patch, List<String> warnings) {
    }

    static Response response(Webhook hook, ObjectNode request, JsonNode answer, boolean mutating,
                             com.fasterxml.jackson.databind.ObjectMapper json) throws CallingWebhookException {
        String uid = request.path("request").path("uid").asText();
        JsonNode r = answer.path("response");
        if (!r.isObject()) {
            throw invalid(hook, "webhook response was absent");
        }
        if (!uid.equals(r.path("uid").asText(""))) {
            throw invalid(hook, "expected response.uid=\"" + uid + "\", got \"" + r.path("uid").asText("") + "\"");
        }
        String apiVersion = answer.path("apiVersion").asText("");
        String kind = answer.path("kind").asText("");
        if (!API_VERSION.equals(apiVersion) || !"AdmissionReview".equals(kind)) {
            throw invalid(hook, "expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got "
                    + (apiVersion.isEmpty() ? "" : apiVersion + ", ") + "Kind=" + kind);
        }
        String patchType = r.path("patchType").asText("");
        String patchText = r.path("patch").asText("");
        JsonNode patch = null;
        if (!patchText.isEmpty() || !patchType.isEmpty()) {
            if (patchText.isEmpty()) {
                throw invalid(hook, "webhook returned patchType of \"" + patchType + "\" without patch");
            }
            if (patchType.isEmpty()) {
                throw invalid(hook, "webhook returned patch without patchType");
            }
            if (!mutating) {
                throw invalid(hook, "validating webhook may not return a patch");
            }
            if (!"JSONPatch".equals(patchType)) {
                throw new CallingWebhookException(hook.name(), "unsupported patch type \"" + patchType + "\"");
            }
            try {
                patch = json.readTree(java.util.Base64.getDecoder().decode(patchText));
            } catch (java.io.IOException | IllegalArgumentException e) {
                throw StatusException.internalError(e.getMessage(), e);
            }
        }
        List<String> warnings = new ArrayList<>();
        for (JsonNode w : r.path("warnings")) {
            if (!w.asText("").isEmpty()) {
                warnings.add(w.asText());
            }
        }
        return new Response(r.path("allowed").asBoolean(false), r.path("status"), patch, warnings);
    }

    private static CallingWebhookException invalid(Webhook hook, String why) {
        return new CallingWebhookException(hook.name(), "received invalid webhook response: " + why);
    }

    /**
     * webhookerrors.ToStatusErr: a denial as the client sees it, with the webhook's code (400 when
     * below 400), reason and details, and kube's message.
     */
    static StatusException denied(Webhook hook, JsonNode status) {
        String deniedBy = "admission webhook \"" + hook.name() + "\" denied the request";
        int code = status.path("code").asInt(0);
        if (code < 400) {
            code = 400;
        }
        String message = status.path("message").asText("");
        String reason = status.path("reason").asText("");
        String text = !message.isEmpty() ? deniedBy + ": " + message
                : !reason.isEmpty() ? deniedBy + ": " + reason : deniedBy + " without explanation";
        StatusException.Details details = null;
        JsonNode d = status.path("details");
        if (d.isObject()) {
            List<StatusCause> causes = new ArrayList<>();
            for (JsonNode c : d.path("causes")) {
                causes.add(new StatusCause(c.path("reason").asText(""), c.path("message").asText(""),
                        c.path("field").asText("")));
            }
            details = new StatusException.Details(d.path("name").asText(""), d.path("group").asText(""),
                    d.path("kind").asText(""), causes, d.path("retryAfterSeconds").asInt(0));
        }
        return new StatusException(StatusReason.fromWireName(reason), code, text, details, null);
    }
}
