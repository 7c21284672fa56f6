package io.kubelix.support.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The types kube declares by hand for admission expressions (plugin/cel's {@code BuildRequestType}
 * and {@code BuildNamespaceType}), written as the schemas {@code CelEnvironment} types variables
 * with: {@code request} is an AdmissionRequest (its kinds, resources, names, operation, user,
 * {@code dryRun}, and {@code options} untyped), {@code namespaceObject} a Namespace of the metadata,
 * spec and status fields kube keeps (its timestamps strings, as the objects bound hold them).
 */
public final class AdmissionDeclTypes {
    private static final String STRING = "{\"type\":\"string\"}";
    private static final String INT = "{\"type\":\"integer\"}";
    private static final String TIMESTAMP = "{\"type\":\"string\",\"format\":\"date-time\"}";
    private static final String STRINGS = "{\"type\":\"array\",\"items\":" + STRING + "}";
    private static final String STRING_MAP = "{\"type\":\"object\",\"additionalProperties\":" + STRING + "}";
    private static final String GVK = object("\"group\":" + STRING + ",\"version\":" + STRING + ",\"kind\":" + STRING);
    private static final String GVR = object("\"group\":" + STRING + ",\"version\":" + STRING + ",\"resource\":" + STRING);

    /** kube's {@code kubernetes.AdmissionRequest}. */
    public static final JsonNode REQUEST = parse(object(
            "\"kind\":" + GVK + ",\"resource\":" + GVR + ",\"subResource\":" + STRING
                    + ",\"requestKind\":" + GVK + ",\"requestResource\":" + GVR + ",\"requestSubResource\":" + STRING
                    + ",\"name\":" + STRING + ",\"namespace\":" + STRING + ",\"operation\":" + STRING
                    + ",\"userInfo\":" + object("\"username\":" + STRING + ",\"uid\":" + STRING + ",\"groups\":" + STRINGS
                    + ",\"extra\":{\"type\":\"object\",\"additionalProperties\":" + STRINGS + "}")
                    + ",\"dryRun\":{\"type\":\"boolean\"},\"options\":{}"));

    /** kube's {@code kubernetes.Namespace}. */
    public static final JsonNode NAMESPACE = parse(object(
            "\"metadata\":" + object("\"name\":" + STRING + ",\"generateName\":" + STRING + ",\"namespace\":" + STRING
                    + ",\"labels\":" + STRING_MAP + ",\"annotations\":" + STRING_MAP + ",\"UID\":" + STRING
                    + ",\"creationTimestamp\":" + TIMESTAMP + ",\"deletionGracePeriodSeconds\":" + INT
                    + ",\"deletionTimestamp\":" + TIMESTAMP + ",\"generation\":" + INT
                    + ",\"resourceVersion\":" + STRING + ",\"finalizers\":" + STRINGS)
                    + ",\"spec\":" + object("\"finalizers\":" + STRINGS)
                    + ",\"status\":" + object("\"conditions\":{\"type\":\"array\",\"items\":" + object(
                    "\"status\":" + STRING + ",\"type\":" + STRING + ",\"lastTransitionTime\":" + TIMESTAMP
                            + ",\"message\":" + STRING + ",\"reason\":" + STRING) + "},\"phase\":" + STRING)));

    private AdmissionDeclTypes() {
    }

    private static String object(String properties) {
        return "{\"type\":\"object\",\"properties\":{" + properties + "}}";
    }

    private static JsonNode parse(String schema) {
        try {
            return new ObjectMapper().readTree(schema);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
