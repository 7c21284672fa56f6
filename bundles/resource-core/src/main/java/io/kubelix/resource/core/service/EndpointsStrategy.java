package io.kubelix.resource.core.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.common.FieldChecks;
import io.kubelix.resource.core.common.Nodes;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's endpointsStrategy with ValidateEndpoints: every address is a valid IP outside the
 * loopback, link-local and multicast ranges, with an optional DNS-label hostname; ports have valid
 * numbers and protocols, and names (required and unique when a subset has several). Ports default
 * to TCP. PUT may create, as kube allows for endpoints.
 */
final class EndpointsStrategy implements RESTCreateStrategy, RESTUpdateStrategy {

    @Override
    public void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        defaults(obj);
    }

    @Override
    public void prepareForUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        defaults(obj);
    }

    @Override
    public boolean allowCreateOnUpdate() {
        return true;
    }

    @Override
    public List<FieldError> validate(RequestContext ctx, ObjectNode obj) {
        return validateEndpoints(obj);
    }

    @Override
    public List<FieldError> validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode old) {
        return validateEndpoints(obj);
    }

    private static void defaults(ObjectNode obj) {
        for (JsonNode subset : obj.path("subsets")) {
            for (JsonNode port : subset.path("ports")) {
                if (port instanceof ObjectNode p && Nodes.text(p, "protocol").isEmpty()) {
                    p.put("protocol", "TCP");
                }
            }
        }
    }

    static List<FieldError> validateEndpoints(ObjectNode obj) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode subsets = obj.path("subsets");
        for (int i = 0; i < subsets.size(); i++) {
            String s = "subsets[" + i + "]";
            JsonNode subset = subsets.get(i);
            if (subset.path("addresses").isEmpty() && subset.path("notReadyAddresses").isEmpty()) {
                errs.add(FieldError.required(s, "must specify `addresses` or `notReadyAddresses`"));
            }
            addresses(subset.path("addresses"), s + ".addresses", errs);
            addresses(subset.path("notReadyAddresses"), s + ".notReadyAddresses", errs);
            JsonNode ports = subset.path("ports");
            Set<String> names = new HashSet<>();
            for (int j = 0; j < ports.size(); j++) {
                String p = s + ".ports[" + j + "]";
                JsonNode port = ports.get(j);
                String name = Nodes.text(port, "name");
                if (ports.size() > 1 && name.isEmpty()) {
                    errs.add(FieldError.required(p + ".name", ""));
                } else if (!name.isEmpty()) {
                    errs.addAll(FieldChecks.dns1123Label(name, p + ".name"));
                    if (!names.add(name)) {
                        errs.add(FieldError.duplicate(p + ".name", name));
                    }
                }
                if (!FieldChecks.validPort(port.get("port"))) {
                    errs.add(FieldError.invalid(p + ".port", port.path("port").asLong(0), FieldChecks.PORT_RANGE));
                }
                errs.addAll(FieldChecks.oneOf(Nodes.text(port, "protocol"), p + ".protocol", FieldChecks.PROTOCOLS));
            }
        }
        return errs;
    }

    private static void addresses(JsonNode list, String path, List<FieldError> errs) {
        for (int k = 0; k < list.size(); k++) {
            String a = path + "[" + k + "]";
            JsonNode address = list.get(k);
            errs.addAll(FieldChecks.ip(Nodes.text(address, "ip"), a + ".ip"));
            String hostname = Nodes.text(address, "hostname");
            if (!hostname.isEmpty()) {
                errs.addAll(FieldChecks.dns1123Label(hostname, a + ".hostname"));
            }
        }
    }
}
