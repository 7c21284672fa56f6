package io.kubelix.support.admission;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.request.UserInfo;

import java.util.UUID;

/**
 * kube's {@code admission.k8s.io/v1} AdmissionRequest of a request, as webhooks receive it and
 * admission policies see it as {@code request}: a new uid, the kind and resource in the request's
 * version, the subresource, name, namespace, operation, user, {@code dryRun} and the operation's
 * options, and, when asked, the old and new objects ({@code null} where there is none).
 */
public final class AdmissionRequests {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private AdmissionRequests() {
    }

    /** The request with its objects, as a webhook's review carries it. */
    public static ObjectNode withObjects(AdmissionAttributes a) {
        ObjectNode r = withoutObjects(a);
        r.set("object", a.object() == null ? F.nullNode() : a.object());
        r.set("oldObject", a.oldObject() == null ? F.nullNode() : a.oldObject());
        return r;
    }

    /** The request without its objects, which policies read as {@code object} and {@code oldObject}. */
    public static ObjectNode withoutObjects(AdmissionAttributes a) {
        ObjectNode r = F.objectNode();
        r.put("uid", UUID.randomUUID().toString());
        ObjectNode kind = F.objectNode();
        kind.put("group", a.kind().group()).put("version", a.kind().version()).put("kind", a.kind().kind());
        ObjectNode resource = F.objectNode();
        resource.put("group", a.resource().group()).put("version", a.resource().version())
                .put("resource", a.resource().resource());
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
        r.put("dryRun", a.dryRun());
        r.set("options", a.options() == null ? F.nullNode() : a.options());
        return r;
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
