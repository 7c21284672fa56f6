package io.kubelix.resource.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.validation.MetadataValidators;
import io.kubelix.api.validation.NameValidators;
import io.kubelix.support.net.IPValidation;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's endpointSliceStrategy with its discovery/v1 defaults (a port's name {@code ""} and
 * protocol TCP) and ValidateEndpointSlice (pkg/apis/discovery/validation): a supported, immutable
 * address type; endpoints with one to 100 addresses of that type; unique, valid port names and
 * supported protocols.
 */
final class EndpointSliceStrategy implements RESTCreateStrategy, RESTUpdateStrategy {
    static final List<String> ADDRESS_TYPES = List.of("FQDN", "IPv4", "IPv6");
    static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");
    static final int MAX_ENDPOINTS = 1000;
    static final int MAX_ADDRESSES = 100;
    static final int MAX_PORTS = 20000;
    static final int MAX_TOPOLOGY_LABELS = 16;

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        defaults(obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        defaults(obj);
    }

    /** SetDefaults_EndpointPort. */
    static void defaults(ObjectNode slice) {
        for (JsonNode port : slice.path("ports")) {
            if (port instanceof ObjectNode p) {
                if (!p.hasNonNull("name")) {
                    p.put("name", "");
                }
                if (!p.hasNonNull("protocol")) {
                    p.put("protocol", "TCP");
                }
            }
        }
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        String addressType = obj.path("addressType").asText("");
        if (addressType.isEmpty()) {
            errs.add(FieldError.required("addressType", ""));
        } else if (!ADDRESS_TYPES.contains(addressType)) {
            errs.add(FieldError.notSupported("addressType", addressType, ADDRESS_TYPES));
        }
        errs.addAll(endpoints(obj.path("endpoints"), addressType));
        errs.addAll(ports(obj.path("ports")));
        return errs;
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        List<FieldError> errs = validate(ctx, obj);
        String addressType = obj.path("addressType").asText("");
        if (!addressType.equals(old.path("addressType").asText(""))) {
            errs.add(FieldError.invalid("addressType", addressType, "field is immutable"));
        }
        return errs;
    }

    private static List<FieldError> endpoints(JsonNode endpoints, String addressType) {
        List<FieldError> errs = new ArrayList<>();
        if (endpoints.size() > MAX_ENDPOINTS) {
            errs.add(new FieldError(FieldError.Type.TOO_MANY, "endpoints", (long) endpoints.size(),
                    "must have at most " + MAX_ENDPOINTS + " items"));
        }
        for (int i = 0; i < endpoints.size(); i++) {
            JsonNode endpoint = endpoints.get(i);
            String path = "endpoints[" + i + "]";
            JsonNode addresses = endpoint.path("addresses");
            if (addresses.isEmpty()) {
                errs.add(FieldError.required(path + ".addresses", "must contain at least 1 address"));
            } else if (addresses.size() > MAX_ADDRESSES) {
                errs.add(new FieldError(FieldError.Type.TOO_MANY, path + ".addresses", (long) addresses.size(),
                        "must have at most " + MAX_ADDRESSES + " items"));
            }
            for (int j = 0; j < addresses.size(); j++) {
                errs.addAll(address(addresses.get(j).asText(""), addressType, path + ".addresses[" + j + "]"));
            }
            JsonNode nodeName = endpoint.get("nodeName");
            if (nodeName != null && nodeName.isTextual()) {
                NameValidators.isDNS1123Subdomain(nodeName.asText())
                        .forEach(m -> errs.add(FieldError.invalid(path + ".nodeName", nodeName.asText(), m)));
            }
            JsonNode topology = endpoint.path("deprecatedTopology");
            if (topology.size() > MAX_TOPOLOGY_LABELS) {
                errs.add(new FieldError(FieldError.Type.TOO_MANY, path + ".deprecatedTopology", (long) topology.size(),
                        "must have at most " + MAX_TOPOLOGY_LABELS + " items"));
            }
            errs.addAll(MetadataValidators.validateLabels(topology, path + ".deprecatedTopology"));
            JsonNode hostname = endpoint.get("hostname");
            if (hostname != null && hostname.isTextual()) {
                NameValidators.isDNS1123Label(hostname.asText())
                        .forEach(m -> errs.add(FieldError.invalid(path + ".hostname", hostname.asText(), m)));
            }
        }
        return errs;
    }

    /** One address, validated as its slice's address type says; an unknown type validates nothing. */
    static List<FieldError> address(String address, String addressType, String path) {
        switch (addressType) {
            case "IPv4", "IPv6" -> {
                List<String> messages = addressType.equals("IPv4") ? IPValidation.isValidIPv4Address(address)
                        : IPValidation.isValidIPv6Address(address);
                if (messages.isEmpty()) {
                    messages = IPValidation.validateEndpointIP(address);
                }
                return messages.stream().map(m -> FieldError.invalid(path, address, m)).toList();
            }
            case "FQDN" -> {
                return fqdn(address, path);
            }
            default -> {
                return List.of();
            }
        }
    }

    /** IsFullyQualifiedDomainName: a DNS-1123 subdomain of at least two labels, a trailing dot allowed. */
    static List<FieldError> fqdn(String name, String path) {
        if (name.isEmpty()) {
            return List.of(FieldError.required(path, ""));
        }
        String n = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
        List<String> msgs = NameValidators.isDNS1123Subdomain(n);
        if (!msgs.isEmpty()) {
            return List.of(FieldError.invalid(path, n, String.join(",", msgs)));
        }
        String[] labels = n.split("\\.", -1);
        if (labels.length < 2) {
            return List.of(FieldError.invalid(path, n, "should be a domain with at least two segments separated by dots"));
        }
        List<FieldError> errs = new ArrayList<>();
        for (String label : labels) {
            List<String> labelMsgs = NameValidators.isDNS1123Label(label);
            if (!labelMsgs.isEmpty()) {
                errs.add(FieldError.invalid(path, label, String.join(",", labelMsgs)));
            }
        }
        return errs;
    }

    private static List<FieldError> ports(JsonNode ports) {
        List<FieldError> errs = new ArrayList<>();
        if (ports.size() > MAX_PORTS) {
            errs.add(new FieldError(FieldError.Type.TOO_MANY, "ports", (long) ports.size(),
                    "must have at most " + MAX_PORTS + " items"));
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            JsonNode port = ports.get(i);
            String path = "ports[" + i + "]";
            String name = port.path("name").asText("");
            if (!name.isEmpty()) {
                NameValidators.isDNS1123Label(name).forEach(m -> errs.add(FieldError.invalid(path + ".name", name, m)));
            }
            if (!names.add(name)) {
                errs.add(FieldError.duplicate(path + ".name", name));
            }
            JsonNode protocol = port.get("protocol");
            if (protocol == null || protocol.isNull()) {
                errs.add(FieldError.required(path + ".protocol", ""));
            } else if (!PROTOCOLS.contains(protocol.asText())) {
                errs.add(FieldError.notSupported(path + ".protocol", protocol.asText(), PROTOCOLS));
            }
            JsonNode appProtocol = port.get("appProtocol");
            if (appProtocol != null && appProtocol.isTextual()) {
                NameValidators.isQualifiedName(appProtocol.asText())
                        .forEach(m -> errs.add(FieldError.invalid(path + ".appProtocol", appProtocol.asText(), m)));
            }
        }
        return errs;
    }
}
