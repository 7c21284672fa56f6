package io.kubelix.support.admission;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.request.UserInfo;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;

import java.util.UUID;

/**
 * kube's {@code admission.k8s.io/v1} AdmissionRequest of a request, as webhooks receive it and
 * admission policies see it as {@code request}: a new uid, the kind and resource matched (in the
 * request's version, or an equivalent one's) and {@code requestKind} and {@code requestResource} as
 * requested, the subresource, name, namespace, operation, user, {@code dryRun} and the operation's
 * options, and, when asked, the old and new objects ({@code null} where there is none).
 */
public final class AdmissionRequests {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private AdmissionRequests() {
    }

    /** The request with its objects, as a webhook's review carries it. */
    public static ObjectNode withObjects(AdmissionAttributes a) {
        return withObjects(new VersionedAttributes(a, new AdmissionMatcher.Match(a.resource(), a.kind()),
                a.object(), a.oldObject()));
    }

    /** The request with its objects as the resource matched serves them (kube's {@code CreateV1AdmissionReview}). */
    public static ObjectNode withObjects(VersionedAttributes v) {
        ObjectNode r = withoutObjects(v.attributes(), v.match());
        r.set("object", v.object() == null ? F.nullNode() : v.object());
        r.set("oldObject", v.oldObject() == null ? F.nullNode() : v.oldObject());
        return r;
    }

    /** The request without its objects, which policies read as {@code object} and {@code oldObject}. */
    public static ObjectNode withoutObjects(AdmissionAttributes a) {
        return withoutObjects(a, new AdmissionMatcher.Match(a.resource(), a.kind()));
    }

    /** The request without its objects, its {@code kind} and {@code resource} those matched. */
    public static ObjectNode withoutObjects(AdmissionAttributes a, AdmissionMatcher.Match match) {
        ObjectNode r = F.objectNode();
        r.put("uid", UUID.randomUUID().toString());
        r.set("kind", kind(match.kind()));
        r.set("resource", resource(match.resource()));
        putIfSet(r, "subResource", a.subresource());
        r.set("requestKind", kind(a.kind()));
        r.set("requestResource", resource(a.resource()));
        putIfSet(r, "requestSubResource", a.subresource());
        putIfSet(r, "name", a.name());
        putIfSet(r, "namespace", a.namespace());
        r.put("operation", a.operation().name());
        r.set("userInfo", userInfo(a.context().user()));
        r.put("dryRun", a.dryRun());
        r.set("options", a.options() == null ? F.nullNode() : a.options());
        return r;
    }

    private static ObjectNode kind(GroupVersionKind k) {
        return F.objectNode().put("group", k.group()).put("version", k.version()).put("kind", k.kind());
    }

    private static ObjectNode resource(GroupVersionResource r) {
        return F.objectNode().put("group", r.group()).put("version", r.version()).put("resource", r.resource());
    }

    /** authenticationv1.UserInfo: empty fields left out. */
    public static ObjectNode userInfo(UserInfo user) {
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

    private static void putIfSet(ObjectNode n, String field, String value) {
        if (value != null && !value.isEmpty()) {
            n.put(field, value);
        }
    }
}
