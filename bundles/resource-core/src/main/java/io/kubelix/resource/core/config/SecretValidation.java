package io.kubelix.resource.core.config;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.resource.core.common.Nodes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's ValidateSecret and ValidateSecretUpdate, with their field paths and messages: config-key
 * data keys, base64 values, 1 MiB in total, the keys each well-known type requires, an immutable
 * {@code type}, and the {@code immutable} flag. Metadata is the Store's to validate.
 */
final class SecretValidation {
    static final int MAX_SECRET_SIZE = 1024 * 1024;
    static final String REDACTED = "<secret contents redacted>";

    static final String TYPE_OPAQUE = "Opaque";
    static final String TYPE_SERVICE_ACCOUNT_TOKEN = "kubernetes.io/service-account-token";
    static final String TYPE_DOCKERCFG = "kubernetes.io/dockercfg";
    static final String TYPE_DOCKER_CONFIG_JSON = "kubernetes.io/dockerconfigjson";
    static final String TYPE_BASIC_AUTH = "kubernetes.io/basic-auth";
    static final String TYPE_SSH_AUTH = "kubernetes.io/ssh-auth";
    static final String TYPE_TLS = "kubernetes.io/tls";

    static final String SERVICE_ACCOUNT_NAME_KEY = "kubernetes.io/service-account.name";
    static final String DOCKER_CONFIG_KEY = ".dockercfg";
    static final String DOCKER_CONFIG_JSON_KEY = ".dockerconfigjson";
    static final String BASIC_AUTH_USERNAME_KEY = "username";
    static final String BASIC_AUTH_PASSWORD_KEY = "password";
    static final String SSH_AUTH_PRIVATE_KEY = "ssh-privatekey";
    static final String TLS_CERT_KEY = "tls.crt";
    static final String TLS_PRIVATE_KEY_KEY = "tls.key";

    /** For the dockercfg well-formedness check; a parser factory, not an ObjectMapper. */
    private final JsonFactory json = new JsonFactory();

    List<FieldError> validate(ObjectNode secret) {
        List<FieldError> errs = new ArrayList<>();
        DataMap.checkShape(secret, "data", errs);
        Map<String, byte[]> data = new LinkedHashMap<>();
        long totalSize = 0;
        ObjectNode dataNode = Nodes.object(secret, "data");
        if (dataNode != null) {
            for (Iterator<Map.Entry<String, JsonNode>> it = dataNode.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String key = e.getKey();
                String path = "data[" + key + "]";
                ConfigKey.validate(key).forEach(msg -> errs.add(FieldError.invalid(path, key, msg)));
                byte[] value = new byte[0];
                if (e.getValue().isTextual()) {
                    try {
                        value = Base64Data.decode(e.getValue().asText());
                    } catch (Base64Data.IllegalBase64Exception ex) {
                        errs.add(FieldError.invalid(path, REDACTED, ex.getMessage()));
                    }
                }
                data.put(key, value);
                totalSize += value.length;
            }
        }
        if (totalSize > MAX_SECRET_SIZE) {
            errs.add(new FieldError(FieldError.Type.TOO_LONG, "data", null, "must have at most " + MAX_SECRET_SIZE + " bytes"));
        }
        // stringData is merged into data before validation; what is left could not be merged.
        if (!Nodes.isUnset(secret, "stringData")) {
            DataMap.checkShape(secret, "stringData", errs);
        }
        errs.addAll(validateType(secret, data));
        return errs;
    }

    List<FieldError> validateUpdate(ObjectNode secret, ObjectNode old) {
        List<FieldError> errs = new ArrayList<>();
        String type = Nodes.text(secret, "type");
        if (!type.equals(Nodes.text(old, "type"))) {
            errs.add(FieldError.invalid("type", type, "field is immutable"));
        }
        if (Nodes.isTrue(old, "immutable")) {
            if (!Nodes.isTrue(secret, "immutable")) {
                errs.add(FieldError.forbidden("immutable", DataMap.IMMUTABLE_MESSAGE));
            }
            if (!DataMap.sameEntries(secret.get("data"), old.get("data"), true)) {
                errs.add(FieldError.forbidden("data", DataMap.IMMUTABLE_MESSAGE));
            }
        }
        errs.addAll(validate(secret));
        return errs;
    }

    /** The keys (or annotation) each well-known type requires; other types are free-form. */
    private List<FieldError> validateType(ObjectNode secret, Map<String, byte[]> data) {
        List<FieldError> errs = new ArrayList<>();
        switch (Nodes.text(secret, "type")) {
            case TYPE_SERVICE_ACCOUNT_TOKEN -> {
                // The uid annotation and the token itself are filled in later by a controller.
                if (Nodes.text(secret.path("metadata").path("annotations"), SERVICE_ACCOUNT_NAME_KEY).isEmpty()) {
                    errs.add(FieldError.required("metadata.annotations[" + SERVICE_ACCOUNT_NAME_KEY + "]", ""));
                }
            }
            case TYPE_DOCKERCFG -> requireJsonObject(data, DOCKER_CONFIG_KEY, errs);
            case TYPE_DOCKER_CONFIG_JSON -> requireJsonObject(data, DOCKER_CONFIG_JSON_KEY, errs);
            case TYPE_BASIC_AUTH -> {
                // Either may be empty, but one of the two must be present.
                if (!data.containsKey(BASIC_AUTH_USERNAME_KEY) && !data.containsKey(BASIC_AUTH_PASSWORD_KEY)) {
                    errs.add(FieldError.required(dataKey(BASIC_AUTH_USERNAME_KEY), ""));
                    errs.add(FieldError.required(dataKey(BASIC_AUTH_PASSWORD_KEY), ""));
                }
            }
            case TYPE_SSH_AUTH -> {
                byte[] key = data.get(SSH_AUTH_PRIVATE_KEY);
                if (key == null || key.length == 0) {
                    errs.add(FieldError.required(dataKey(SSH_AUTH_PRIVATE_KEY), ""));
                }
            }
            case TYPE_TLS -> {
                if (!data.containsKey(TLS_CERT_KEY)) {
                    errs.add(FieldError.required(dataKey(TLS_CERT_KEY), ""));
                }
                if (!data.containsKey(TLS_PRIVATE_KEY_KEY)) {
                    errs.add(FieldError.required(dataKey(TLS_PRIVATE_KEY_KEY), ""));
                }
            }
            default -> {
                // Opaque, bootstrap tokens and custom types: nothing required.
            }
        }
        return errs;
    }

    /** The key must exist and hold JSON that Go can unmarshal into a map (an object, or null). */
    private void requireJsonObject(Map<String, byte[]> data, String key, List<FieldError> errs) {
        byte[] value = data.get(key);
        if (value == null) {
            errs.add(FieldError.required(dataKey(key), ""));
            return;
        }
        String problem = jsonObjectProblem(value);
        if (problem != null) {
            errs.add(FieldError.invalid(dataKey(key), REDACTED, problem));
        }
    }

    /** Why {@code value} is not a JSON object, in words close to Go's encoding/json, or null when it is one. */
    private String jsonObjectProblem(byte[] value) {
        try (JsonParser p = json.createParser(value)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                return "unexpected end of JSON input";
            }
            switch (first) {
                case START_OBJECT -> p.skipChildren();
                case VALUE_NULL -> {
                }
                case START_ARRAY -> {
                    return unmarshalError("array");
                }
                case VALUE_STRING -> {
                    return unmarshalError("string");
                }
                case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                    return unmarshalError("number");
                }
                default -> {
                    return unmarshalError("bool");
                }
            }
            if (p.nextToken() != null) {
                return "invalid character after top-level value";
            }
            return null;
        } catch (JsonEOFException e) {
            return "unexpected end of JSON input";
        } catch (JsonProcessingException e) {
            return "invalid JSON: " + e.getOriginalMessage();
        } catch (IOException e) {
            return "invalid JSON: " + e.getMessage();
        }
    }

    private static String unmarshalError(String jsonType) {
        return "json: cannot unmarshal " + jsonType + " into Go value of type map[string]interface {}";
    }

    private static String dataKey(String key) {
        return "data[" + key + "]";
    }
}
