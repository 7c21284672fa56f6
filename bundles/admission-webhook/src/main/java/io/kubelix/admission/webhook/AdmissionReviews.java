package io.kubelix.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.errors.StatusCause;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.request.UserInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * {@code admission.k8s.io/v1} AdmissionReviews as kube-apiserver writes and reads them
 * (webhook/request): the request with a new uid per call, the kind and resource in the request's
 * version, the subresource, name, namespace, operation, user, old and new objects ({@code null}
 * where there is none), {@code dryRun} and the operation's options; the response checked as kube
 * checks it.
 */
final class AdmissionReviews {
    static final String API_VERSION = "admission.k8s.io/v1";
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private AdmissionReviews() {
    }

    static ObjectNode request(AdmissionAttributes a) {
        ObjectNode review = F.objectNode();
        review.put("kind", "AdmissionReview").put("apiVersion", API_VERSION);
        ObjectNode r = review.putObject("request");
        r.put("uid", UUID.randomUUID().toString());
        ObjectNode kind = gvk(a);
        ObjectNode resource = gvr(a);
        r.set("kind", kind);
        r.set("resource", resource);
        putIfSet(r, "subResource", a.subresource());
        r.set("requestKind", kind.deepCopy());
        r.set("requestResource", resource.deepCopy());
        putIfSet(r, "requestSubResource", a.subresource());
        putIfSet(r, "name", a.name());
        putIfSet(r, "namespace", a.namespace());
        r.put("operation", a.operation().name());
        r.set("userInfo", userInfo(a.context().user()));
        r.set("object", a.object() == null ? F.nullNode() : a.object());
        r.set("oldObject", a.oldObject() == null ? F.nullNode() : a.oldObject());
        r.put("dryRun", a.dryRun());
        r.set("options", a.options() == null ? F.nullNode() : a.options());
        return review;
    }

    private static ObjectNode gvk(AdmissionAttributes a) {
        ObjectNode k = F.objectNode();
        k.put("group", a.kind().group()).put("version", a.kind().version()).put("kind", a.kind().kind());
        return k;
    }

    private static ObjectNode gvr(AdmissionAttributes a) {
        ObjectNode k = F.objectNode();
        k.put("group", a.resource().group()).put("version", a.resource().version())
                .put("resource", a.resource().resource());
        return k;
    }

    /** authenticationv1.UserInfo: empty fields left out. */
    private static ObjectNode userInfo(UserInfo user) {
        ObjectNode u = F.objectNode();
        putIfSet(u, "username", user.name());
        putIfSet(u, "uid", user.uid());
        if (!user.groups().isEmpty()) {
            ArrayNode groups = u.putArray("groups");
            user.groups().forEach(groups::add);
        }
        if (!user.extra().isEmpty()) {
            ObjectNode extra = u.putObject("extra");
            user.extra().forEach((k, v) -> {
                ArrayNode values = extra.putArray(k);
                v.forEach(values::add);
            });
        }
        return u;
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

    private static void putIfSet(ObjectNode n, String field, String value) {
        if (value != null && !value.isEmpty()) {
            n.put(field, value);
        }
    }
}
