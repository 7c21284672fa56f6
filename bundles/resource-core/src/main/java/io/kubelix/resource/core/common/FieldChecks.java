package io.kubelix.resource.core.common;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.core.v1.PodTemplateValidation;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.NameValidators;
import io.kubelix.support.net.IPValidation;

import java.util.ArrayList;
import java.util.List;

/**
 * apimachinery's small validators, with kube's words, that the core/v1 kinds of this bundle share:
 * port numbers and names, enumerations, DNS names and IP addresses.
 */
public final class FieldChecks {
    public static final String PORT_RANGE = "must be between 1 and 65535, inclusive";
    public static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");
    static final String DNS1035_LABEL_MESSAGE = "a DNS-1035 label must consist of lower case alphanumeric characters "
            + "or '-', start with an alphabetic character, and end with an alphanumeric character";
    static final String DNS1035_LABEL_FORMAT = "[a-z]([-a-z0-9]*[a-z0-9])?";

    private FieldChecks() {
    }

    /** Required when empty, NotSupported when not one of {@code supported} (listed sorted, as Go does). */
    public static List<FieldError> oneOf(String value, String path, List<String> supported) {
        if (value.isEmpty()) {
            return List.of(FieldError.required(path, ""));
        }
        return supported.contains(value) ? List.of() : List.of(FieldError.notSupported(path, value, supported));
    }

    /** NotSupported when set and not one of {@code supported}; an unset value is fine. */
    public static List<FieldError> optionalOneOf(JsonNode parent, String field, String path, List<String> supported) {
        String value = Nodes.text(parent, field);
        return value.isEmpty() ? List.of() : oneOf(value, path, supported);
    }

    /** IsValidPortNum. */
    public static boolean validPort(JsonNode port) {
        return port != null && port.isIntegralNumber() && port.asLong() >= 1 && port.asLong() <= 65535;
    }

    /** ValidatePortNumOrName: a port number, or an IANA service name. */
    public static List<FieldError> portNumOrName(JsonNode port, String path) {
        List<FieldError> errs = new ArrayList<>();
        if (port != null && port.isTextual()) {
            String name = port.asText();
            PodTemplateValidation.isValidPortName(name).forEach(m -> errs.add(FieldError.invalid(path, name, m)));
        } else if (!validPort(port)) {
            errs.add(FieldError.invalid(path, port == null ? 0 : port.asLong(), PORT_RANGE));
        }
        return errs;
    }

    /** ValidateDNS1123Label. */
    public static List<FieldError> dns1123Label(String value, String path) {
        return NameValidators.isDNS1123Label(value).stream().map(m -> FieldError.invalid(path, value, m)).toList();
    }

    /** ValidateDNS1123Subdomain. */
    public static List<FieldError> dns1123Subdomain(String value, String path) {
        return NameValidators.isDNS1123Subdomain(value).stream().map(m -> FieldError.invalid(path, value, m)).toList();
    }

    /** IsDNS1035Label's messages. */
    public static List<String> isDNS1035Label(String value) {
        List<String> errs = new ArrayList<>();
        if (value.length() > NameValidators.DNS1123_LABEL_MAX_LENGTH) {
            errs.add(ValidationMessages.maxLenError(NameValidators.DNS1123_LABEL_MAX_LENGTH));
        }
        if (!value.matches(DNS1035_LABEL_FORMAT)) {
            errs.add(ValidationMessages.regexError(DNS1035_LABEL_MESSAGE, DNS1035_LABEL_FORMAT, "my-name", "abc-123"));
        }
        return errs;
    }

    /** IsValidIP, then ValidateEndpointIP's checks of what the address may not be. */
    public static List<FieldError> ip(String value, String path) {
        List<String> messages = IPValidation.isValidIP(value);
        if (messages.isEmpty()) {
            messages = IPValidation.validateEndpointIP(value);
        }
        return messages.stream().map(m -> FieldError.invalid(path, value, m)).toList();
    }
}
