package io.kubelix.apiextensions.customresource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.ResourceSchema;

import java.util.Iterator;
import java.util.Map;

/**
 * The OpenAPI schema the server publishes for a custom resource version (kube's CRD OpenAPI
 * builder): the CRD's schema named as kube names it ({@code com.example.stable.v1.CronTab}), with
 * {@code apiVersion}, {@code kind} and {@code metadata} described at the root and in embedded
 * resources. It drives {@code kubectl explain}, unknown-field detection ({@code fieldValidation})
 * and server-side apply's list and map types.
 */
final class ServedSchemas {
    private static final String API_VERSION = "APIVersion defines the versioned schema of this representation of an "
            + "object. Servers should convert recognized schemas to the latest internal value, and may reject "
            + "unrecognized values. More info: "
            + "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources";
    private static final String KIND = "Kind is a string value representing the REST resource this object represents. "
            + "Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In "
            + "CamelCase. More info: "
            + "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds";
    private static final String METADATA = "Standard object's metadata. More info: "
            + "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

    private ServedSchemas() {
    }

    static ResourceSchema of(String group, String version, String kind, ObjectNode openAPIV3Schema) {
        ObjectNode root = openAPIV3Schema.deepCopy();
        resource(root);
        return new ResourceSchema(definitionName(group, version, kind), Map.of(definitionName(group, version, kind), root));
    }

    /** kube's name of a CR definition: the group's domain reversed, the version, the kind. */
    static String definitionName(String group, String version, String kind) {
        String[] parts = group.split("\\.");
        StringBuilder b = new StringBuilder();
        for (int i = parts.length - 1; i >= 0; i--) {
            b.append(parts[i]).append('.');
        }
        return b.append(version).append('.').append(kind).toString();
    }

    private static void resource(ObjectNode s) {
        ObjectNode props = s.get("properties") instanceof ObjectNode p ? p : s.putObject("properties");
        props.set("apiVersion", props.objectNode().put("description", API_VERSION).put("type", "string"));
        props.set("kind", props.objectNode().put("description", KIND).put("type", "string"));
        props.set("metadata", props.objectNode().put("description", METADATA).put("type", "object"));
        s.put("type", "object");
        embedded(s, true);
    }

    /** Describes the resource fields of every embedded resource under {@code s}. */
    private static void embedded(JsonNode s, boolean root) {
        if (!s.isObject()) {
            return;
        }
        if (!root && s.path("x-kubernetes-embedded-resource").asBoolean(false)) {
            resource((ObjectNode) s);
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = s.path("properties").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> p = it.next();
            if (!root || !p.getKey().equals("metadata")) {
                embedded(p.getValue(), false);
            }
        }
        embedded(s.path("items"), false);
        embedded(s.path("additionalProperties"), false);
    }
}
