package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StatusStrategies;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.validation.NameValidators;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The APIService strategy (kube-aggregator's pkg/registry/apiservice and apiregistration/validation):
 * {@code spec.service.port} defaults to 443; a new APIService starts without status, a local one
 * (no {@code spec.service}) {@code Available} at once with reason {@code Local}; updates keep the
 * stored status. The name must be {@code <version>.<group>}, and the priorities, group, version and
 * TLS settings are checked as kube checks them.
 */
final class APIServiceStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final int DEFAULT_SERVICE_PORT = 443;

    private final Clock clock;

    APIServiceStrategy(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        setDefaults(obj);
        obj.remove("status");
        if (APIServices.service(obj) == null) {
            APIServices.setAvailable(obj, "True", "Local", "Local APIServices are always available", clock.instant());
        }
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        setDefaults(obj);
        StatusStrategies.resetStatus(obj, old);
    }

    static void setDefaults(ObjectNode obj) {
        if (APIServices.service(obj) instanceof ObjectNode service
                && (!service.hasNonNull("port"))) {
            service.put("port", DEFAULT_SERVICE_PORT);
        }
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return validateAPIService(obj);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validateAPIService(obj);
    }

    /** kube's ValidateAPIService, with its messages. */
    static List<FieldError> validateAPIService(ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode spec = obj.path("spec");
        String group = spec.path("group").asText("");
        String version = spec.path("version").asText("");
        String name = obj.path("metadata").path("name").asText("");
        String requiredName = version + "." + group;
        if (!name.isEmpty() && NameValidators.isValidPathSegmentName(name).isEmpty() && !name.equals(requiredName)) {
            errs.add(FieldError.invalid("metadata.name", name,
                    "must be `spec.version+\".\"+spec.group`: \"" + requiredName + "\""));
        }
        if (group.isEmpty() && !version.equals("v1")) {
            errs.add(FieldError.required("spec.group", "only v1 may have an empty group and it better be legacy kube"));
        }
        if (!group.isEmpty()) {
            for (String e : NameValidators.isDNS1123Subdomain(group)) {
                errs.add(FieldError.invalid("spec.group", group, e));
            }
        }
        for (String e : NameValidators.isDNS1035Label(version)) {
            errs.add(FieldError.invalid("spec.version", version, e));
        }
        long groupPriority = spec.path("groupPriorityMinimum").asLong(0);
        if (groupPriority <= 0 || groupPriority > 20000) {
            errs.add(FieldError.invalid("spec.groupPriorityMinimum", groupPriority, "must be positive and less than 20000"));
        }
        long versionPriority = spec.path("versionPriority").asLong(0);
        if (versionPriority <= 0 || versionPriority > 1000) {
            errs.add(FieldError.invalid("spec.versionPriority", versionPriority, "must be positive and less than 1000"));
        }
        String caBundle = spec.path("caBundle").asText("");
        boolean insecure = spec.path("insecureSkipTLSVerify").asBoolean(false);
        JsonNode service = APIServices.service(obj);
        if (service == null) {
            if (!caBundle.isEmpty()) {
                errs.add(FieldError.invalid("spec.caBundle", decodedLength(caBundle) + " bytes",
                        "local APIServices may not have a caBundle"));
            }
            if (insecure) {
                errs.add(FieldError.invalid("spec.insecureSkipTLSVerify", true,
                        "local APIServices may not have insecureSkipTLSVerify"));
            }
            return errs;
        }
        if (service.path("namespace").asText("").isEmpty()) {
            errs.add(FieldError.required("spec.service.namespace", ""));
        }
        if (service.path("name").asText("").isEmpty()) {
            errs.add(FieldError.required("spec.service.name", ""));
        }
        if (insecure && !caBundle.isEmpty()) {
            errs.add(FieldError.invalid("spec.insecureSkipTLSVerify", true, "may not be true if caBundle is present"));
        }
        return errs;
    }

    /** The length of the bytes a base64 {@code caBundle} holds, as kube counts them. */
    private static int decodedLength(String base64) {
        try {
            return java.util.Base64.getDecoder().decode(base64).length;
        } catch (IllegalArgumentException e) {
            return base64.length();
        }
    }
}
