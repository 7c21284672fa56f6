package io.kubelix.apiextensions.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.apiextensions.Crds;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.NameValidators;
import io.kubelix.support.webhook.validation.ClientConfigValidation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * kube's ValidateCustomResourceDefinition and ValidateCustomResourceDefinitionUpdate for
 * {@code apiextensions.k8s.io/v1}: the name is {@code <plural>.<group>}, the group a domain with a
 * dot, the scope one of two, the versions DNS-1035 labels with exactly one storage version and a
 * structural schema each, names valid and distinct, printer columns, scale paths and conversion
 * well formed, and the stored versions consistent with the versions; on update the group and
 * plural never change, nor the scope and kind once the CRD is established. Messages are kube's.
 */
public final class CrdValidation {
    static final List<String> SCOPES = List.of("Cluster", "Namespaced");
    static final List<String> PRINTER_COLUMN_TYPES = List.of("boolean", "date", "integer", "number", "string");
    static final List<String> PRINTER_COLUMN_FORMATS = List.of("byte", "date", "date-time", "double", "float", "int32",
            "int64", "password");
    static final List<String> CONVERSION_STRATEGIES = List.of("None", "Webhook");
    /** The ConversionReview versions the server sends, as kube lists them. */
    static final List<String> CONVERSION_REVIEW_VERSIONS = List.of("v1", "v1beta1");

    private CrdValidation() {
    }

    /** Validation of a new CRD. */
    public static List<FieldError> validate(ObjectNode crd) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode spec = crd.path("spec");
        String required = spec.path("names").path("plural").asText("") + "." + spec.path("group").asText("");
        String name = Crds.name(crd);
        if (!name.isEmpty() && !name.equals(required)) {
            errs.add(FieldError.invalid("metadata.name", name, "must be spec.names.plural+\".\"+spec.group"));
        }
        // a CRD not yet established may name a CA bundle that does not parse, as kube allows
        errs.addAll(validateSpec(spec, true));
        errs.addAll(validateNames(crd.path("status").path("acceptedNames"), "status.acceptedNames"));
        errs.addAll(validateStoredVersions(crd));
        if (spec.path("preserveUnknownFields").asBoolean(false)) {
            errs.add(FieldError.invalid("spec.preserveUnknownFields", true,
                    "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"));
        }
        return errs;
    }

    /** Validation of an update of {@code old} to {@code crd}. */
    public static List<FieldError> validateUpdate(ObjectNode crd, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode spec = crd.path("spec");
        JsonNode oldSpec = old.path("spec");
        errs.addAll(validateSpec(spec, allowInvalidCABundle(old)));
        if (Crds.conditionTrue(old, Crds.ESTABLISHED)) {
            immutable(errs, "spec.scope", spec.path("scope"), oldSpec.path("scope"));
            immutable(errs, "spec.names.kind", spec.path("names").path("kind"), oldSpec.path("names").path("kind"));
        }
        immutable(errs, "spec.group", spec.path("group"), oldSpec.path("group"));
        immutable(errs, "spec.names.plural", spec.path("names").path("plural"), oldSpec.path("names").path("plural"));
        errs.addAll(validateNames(crd.path("status").path("acceptedNames"), "status.acceptedNames"));
        errs.addAll(validateStoredVersions(crd));
        if (spec.path("preserveUnknownFields").asBoolean(false) && !oldSpec.path("preserveUnknownFields").asBoolean(false)) {
            errs.add(FieldError.invalid("spec.preserveUnknownFields", true,
                    "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead"));
        }
        return errs;
    }

    /** ValidateUpdateCustomResourceDefinitionStatus: what a write through {@code status} must keep valid. */
    public static List<FieldError> validateStatus(ObjectNode crd) {
        return validateNames(crd.path("status").path("acceptedNames"), "status.acceptedNames");
    }

    private static void immutable(List<FieldError> errs, String path, JsonNode value, JsonNode old) {
        if (!Objects.equals(value, old)) {
            errs.add(FieldError.invalid(path, value.isTextual() ? value.asText() : value.toString(),
                    "field is immutable"));
        }
    }

    /**
     * kube's allowInvalidCABundle: an update may keep a conversion CA bundle that does not parse while
     * the CRD is not established, or when the one it had did not parse either.
     */
    private static boolean allowInvalidCABundle(ObjectNode old) {
        if (!Crds.conditionTrue(old, Crds.ESTABLISHED)) {
            return true;
        }
        String caBundle = old.path("spec").path("conversion").path("webhook").path("clientConfig").path("caBundle").asText("");
        return !caBundle.isEmpty() && !ClientConfigValidation.caBundle(caBundle, "caBundle").isEmpty();
    }

    static List<FieldError> validateSpec(JsonNode spec, boolean allowInvalidCABundle) {
        List<FieldError> errs = new ArrayList<>();
        String group = spec.path("group").asText("");
        if (group.isEmpty()) {
            errs.add(FieldError.required("spec.group", ""));
        } else if (!NameValidators.isDNS1123Subdomain(group).isEmpty()) {
            errs.add(FieldError.invalid("spec.group", group, String.join(",", NameValidators.isDNS1123Subdomain(group))));
        } else if (group.split("\\.").length < 2) {
            errs.add(FieldError.invalid("spec.group", group, "should be a domain with at least one dot"));
        }
        String scope = spec.path("scope").asText("");
        if (scope.isEmpty()) {
            errs.add(FieldError.required("spec.scope", ""));
        } else if (!SCOPES.contains(scope)) {
            errs.add(FieldError.notSupported("spec.scope", scope, SCOPES));
        }

        JsonNode versions = spec.path("versions");
        int storage = 0;
        Set<String> seen = new HashSet<>();
        boolean unique = true;
        for (int i = 0; i < versions.size(); i++) {
            JsonNode v = versions.get(i);
            String path = "spec.versions[" + i + "]";
            String vname = v.path("name").asText("");
            if (v.path("storage").asBoolean(false)) {
                storage++;
            }
            if (!seen.add(vname)) {
                unique = false;
            }
            List<String> nameErrs = NameValidators.isDNS1035Label(vname);
            if (!nameErrs.isEmpty()) {
                errs.add(FieldError.invalid(path + ".name", vname, String.join(",", nameErrs)));
            }
            errs.addAll(validateVersion(v, path));
        }
        if (versions.isEmpty()) {
            // kube's v1 conversion leaves no top-level version: the storage count below reports it.
            unique = true;
        }
        if (!unique) {
            errs.add(FieldError.invalid("spec.versions", versions.toString(), "must contain unique version names"));
        }
        if (storage != 1) {
            errs.add(FieldError.invalid("spec.versions", versions.toString(),
                    "must have exactly one version marked as storage version"));
        }

        JsonNode names = spec.path("names");
        for (String n : List.of("plural", "singular", "kind", "listKind")) {
            if (names.path(n).asText("").isEmpty()) {
                errs.add(FieldError.required("spec.names." + n, ""));
            }
        }
        errs.addAll(validateNames(names, "spec.names"));
        errs.addAll(validateConversion(spec.path("conversion"), allowInvalidCABundle));
        return errs;
    }

    private static List<FieldError> validateVersion(JsonNode v, String path) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode warning = v.get("deprecationWarning");
        if (warning != null && !warning.isNull()) {
            String w = warning.asText();
            if (!v.path("deprecated").asBoolean(false)) {
                errs.add(FieldError.invalid(path + ".deprecationWarning", w, "can only be set for deprecated versions"));
            } else if (w.length() > 256) {
                errs.add(FieldError.invalid(path + ".deprecationWarning", w, "must be <= 256 characters long"));
            } else if (w.isEmpty()) {
                errs.add(FieldError.invalid(path + ".deprecationWarning", w, "must not be an empty string"));
            }
        }
        JsonNode schema = v.path("schema").path("openAPIV3Schema");
        boolean status = v.path("subresources").path("status").isObject();
        if (!schema.isObject()) {
            errs.add(FieldError.required(path + ".schema.openAPIV3Schema", ""));
        } else {
            errs.addAll(SchemaValidation.validate((ObjectNode) schema, path + ".schema.openAPIV3Schema", status));
        }
        errs.addAll(validateSubresources(v.path("subresources"), path + ".subresources"));
        JsonNode columns = v.path("additionalPrinterColumns");
        for (int i = 0; i < columns.size(); i++) {
            errs.addAll(validateColumn(columns.get(i), path + ".additionalPrinterColumns[" + i + "]"));
        }
        JsonNode selectable = v.path("selectableFields");
        Set<String> unique = new HashSet<>();
        for (int i = 0; i < selectable.size(); i++) {
            String p = path + ".selectableFields[" + i + "].jsonPath";
            String jsonPath = selectable.get(i).path("jsonPath").asText("");
            if (jsonPath.isEmpty()) {
                errs.add(FieldError.required(p, ""));
                continue;
            }
            if (jsonPath.startsWith(".metadata")) {
                errs.add(FieldError.invalid(p, jsonPath, "must not point to fields in metadata"));
            }
            JsonNode target = schema.isObject() ? SchemaValidation.schemaAt(schema, jsonPath) : null;
            if (target == null) {
                errs.add(FieldError.invalid(p, jsonPath, "is an invalid path: does not refer to a valid field"));
            } else if (!List.of("string", "boolean", "integer").contains(target.path("type").asText())) {
                errs.add(FieldError.invalid(p, jsonPath, "must point to a field of type string, boolean or integer. "
                        + "Enum string fields and strings with formats are allowed."));
            }
            if (!unique.add(jsonPath)) {
                errs.add(FieldError.duplicate(p, jsonPath));
            }
        }
        if (unique.size() > 8) {
            errs.add(new FieldError(FieldError.Type.TOO_MANY, path + ".selectableFields", unique.size(),
                    "must have at most 8 items"));
        }
        return errs;
    }

    static List<FieldError> validateSubresources(JsonNode subresources, String path) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode scale = subresources.path("scale");
        if (!scale.isObject()) {
            return errs;
        }
        String spec = scale.path("specReplicasPath").asText("");
        if (spec.isEmpty()) {
            errs.add(FieldError.required(path + ".scale.specReplicasPath", ""));
        } else if (!simpleJsonPath(errs, spec, path + ".scale.specReplicasPath") && !spec.startsWith(".spec.")) {
            errs.add(FieldError.invalid(path + ".scale.specReplicasPath", spec, "should be a json path under .spec"));
        }
        String status = scale.path("statusReplicasPath").asText("");
        if (status.isEmpty()) {
            errs.add(FieldError.required(path + ".scale.statusReplicasPath", ""));
        } else if (!simpleJsonPath(errs, status, path + ".scale.statusReplicasPath") && !status.startsWith(".status.")) {
            errs.add(FieldError.invalid(path + ".scale.statusReplicasPath", status, "should be a json path under .status"));
        }
        String selector = scale.path("labelSelectorPath").asText("");
        if (!selector.isEmpty() && !simpleJsonPath(errs, selector, path + ".scale.labelSelectorPath")
                && !selector.startsWith(".spec.") && !selector.startsWith(".status.")) {
            errs.add(FieldError.invalid(path + ".scale.labelSelectorPath", selector,
                    "should be a json path under either .spec or .status"));
        }
        return errs;
    }

    /** validateSimpleJSONPath; whether it found errors. */
    private static boolean simpleJsonPath(List<FieldError> errs, String s, String path) {
        if (s.charAt(0) != '.') {
            errs.add(FieldError.invalid(path, s, "must be a simple json path starting with ."));
            return true;
        }
        return false;
    }

    static List<FieldError> validateColumn(JsonNode col, String path) {
        List<FieldError> errs = new ArrayList<>();
        if (col.path("name").asText("").isEmpty()) {
            errs.add(FieldError.required(path + ".name", ""));
        }
        String type = col.path("type").asText("");
        String types = "must be one of " + String.join(",", PRINTER_COLUMN_TYPES);
        if (type.isEmpty()) {
            errs.add(FieldError.required(path + ".type", types));
        } else if (!PRINTER_COLUMN_TYPES.contains(type)) {
            errs.add(FieldError.invalid(path + ".type", type, types));
        }
        String format = col.path("format").asText("");
        if (!format.isEmpty() && !PRINTER_COLUMN_FORMATS.contains(format)) {
            errs.add(FieldError.invalid(path + ".format", format, "must be one of " + String.join(",", PRINTER_COLUMN_FORMATS)));
        }
        String jsonPath = col.path("jsonPath").asText("");
        if (jsonPath.isEmpty()) {
            errs.add(FieldError.required(path + ".JSONPath", ""));
        } else if (jsonPath.charAt(0) != '.') {
            errs.add(FieldError.invalid(path + ".JSONPath", jsonPath, "must be a simple json path starting with ."));
        }
        return errs;
    }

    /** ValidateCustomResourceDefinitionNames, for {@code spec.names} and {@code status.acceptedNames}. */
    static List<FieldError> validateNames(JsonNode names, String path) {
        List<FieldError> errs = new ArrayList<>();
        for (String n : List.of("plural", "singular")) {
            String value = names.path(n).asText("");
            List<String> e = NameValidators.isDNS1035Label(value);
            if (!value.isEmpty() && !e.isEmpty()) {
                errs.add(FieldError.invalid(path + "." + n, value, String.join(",", e)));
            }
        }
        for (String n : List.of("kind", "listKind")) {
            String value = names.path(n).asText("");
            List<String> e = NameValidators.isDNS1035Label(value.toLowerCase(java.util.Locale.ROOT));
            if (!value.isEmpty() && !e.isEmpty()) {
                errs.add(FieldError.invalid(path + "." + n, value, "may have mixed case, but should otherwise match: "
                        + String.join(",", e)));
            }
        }
        JsonNode shortNames = names.path("shortNames");
        for (int i = 0; i < shortNames.size(); i++) {
            String s = shortNames.get(i).asText("");
            List<String> e = NameValidators.isDNS1035Label(s);
            if (!e.isEmpty()) {
                errs.add(FieldError.invalid(path + ".shortNames[" + i + "]", s, String.join(",", e)));
            }
        }
        String kind = names.path("kind").asText("");
        if (!kind.isEmpty() && kind.equals(names.path("listKind").asText(""))) {
            errs.add(FieldError.invalid(path + ".listKind", kind, "kind and listKind may not be the same"));
        }
        JsonNode categories = names.path("categories");
        for (int i = 0; i < categories.size(); i++) {
            String c = categories.get(i).asText("");
            List<String> e = NameValidators.isDNS1035Label(c);
            if (!e.isEmpty()) {
                errs.add(FieldError.invalid(path + ".categories[" + i + "]", c, String.join(",", e)));
            }
        }
        return errs;
    }

    static List<FieldError> validateConversion(JsonNode conversion, boolean allowInvalidCABundle) {
        List<FieldError> errs = new ArrayList<>();
        if (!conversion.isObject()) {
            return errs;
        }
        String strategy = conversion.path("strategy").asText("");
        if (strategy.isEmpty()) {
            errs.add(FieldError.required("spec.conversion.strategy", ""));
        } else if (!CONVERSION_STRATEGIES.contains(strategy)) {
            errs.add(FieldError.notSupported("spec.conversion.strategy", strategy, CONVERSION_STRATEGIES));
        }
        // kube validates its internal version, where v1's webhook.clientConfig and
        // webhook.conversionReviewVersions are webhookClientConfig and conversionReviewVersions of the
        // conversion itself, and says so in its paths
        JsonNode webhook = conversion.path("webhook");
        JsonNode cc = webhook.path("clientConfig");
        if ("Webhook".equals(strategy)) {
            if (!cc.isObject()) {
                errs.add(FieldError.required("spec.conversion.webhookClientConfig", "required when strategy is set to Webhook"));
            } else {
                errs.addAll(ClientConfigValidation.clientConfig(cc, "spec.conversion.webhookClientConfig"));
                String caBundle = cc.path("caBundle").asText("");
                if (!caBundle.isEmpty() && !allowInvalidCABundle) {
                    errs.addAll(ClientConfigValidation.caBundle(caBundle, "spec.conversion.webhookClientConfig.caBundle"));
                }
            }
            errs.addAll(validateConversionReviewVersions(webhook.path("conversionReviewVersions"),
                    "spec.conversion.conversionReviewVersions"));
        } else if (cc.isObject()) {
            errs.add(FieldError.forbidden("spec.conversion.webhookClientConfig", "should not be set when strategy is not set to Webhook"));
        }
        return errs;
    }

    /**
     * kube's validateConversionReviewVersions: at least one, none twice, each a DNS-1035 label, and one
     * of them a ConversionReview version the server speaks.
     */
    static List<FieldError> validateConversionReviewVersions(JsonNode versions, String path) {
        List<FieldError> errs = new ArrayList<>();
        if (versions.isEmpty()) {
            errs.add(FieldError.required(path, ""));
            return errs;
        }
        Set<String> seen = new HashSet<>();
        boolean accepted = false;
        List<String> all = new ArrayList<>();
        for (int i = 0; i < versions.size(); i++) {
            String v = versions.get(i).asText();
            all.add(v);
            if (!seen.add(v)) {
                errs.add(FieldError.invalid(path + "[" + i + "]", v, "duplicate version"));
                continue;
            }
            for (String e : NameValidators.isDNS1035Label(v)) {
                errs.add(FieldError.invalid(path + "[" + i + "]", v, e));
            }
            accepted |= CONVERSION_REVIEW_VERSIONS.contains(v);
        }
        if (!accepted) {
            errs.add(FieldError.invalid(path, all, "must include at least one of " + String.join(", ", CONVERSION_REVIEW_VERSIONS)));
        }
        return errs;
    }

    /** ValidateCustomResourceDefinitionStoredVersions. */
    static List<FieldError> validateStoredVersions(JsonNode crd) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode stored = crd.path("status").path("storedVersions");
        String path = "status.storedVersions";
        if (stored.isEmpty()) {
            errs.add(FieldError.invalid(path, "[]", "must have at least one stored version"));
            return errs;
        }
        List<String> storedNames = new ArrayList<>();
        stored.forEach(s -> storedNames.add(s.asText()));
        Set<String> inSpec = new HashSet<>();
        for (JsonNode v : crd.path("spec").path("versions")) {
            String name = v.path("name").asText();
            inSpec.add(name);
            if (v.path("storage").asBoolean(false) && !storedNames.contains(name)) {
                errs.add(FieldError.invalid(path, stored.toString(), "must have the storage version " + name));
            }
        }
        for (int i = 0; i < storedNames.size(); i++) {
            String v = storedNames.get(i);
            if (!inSpec.contains(v)) {
                errs.add(FieldError.invalid(path + "[" + i + "]", v, String.format("missing from spec.versions; %1$s was "
                        + "previously a storage version, and must remain in spec.versions until a storage migration "
                        + "ensures no data remains persisted in %1$s and removes %1$s from status.storedVersions", v)));
            }
        }
        return errs;
    }
}
