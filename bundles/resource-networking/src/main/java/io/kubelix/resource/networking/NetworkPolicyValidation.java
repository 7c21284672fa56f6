package io.kubelix.resource.networking;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.core.v1.PodTemplateValidation;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.MetadataValidators;
import io.kubelix.support.net.CIDR;
import io.kubelix.support.net.IPValidation;

import java.util.ArrayList;
import java.util.List;

/**
 * kube's ValidateNetworkPolicySpec (pkg/apis/networking/validation): the pod selector, each
 * ingress and egress rule's ports and peers, and the policy types, with kube's field paths and words.
 */
final class NetworkPolicyValidation {
    static final List<String> PROTOCOLS = List.of("TCP", "UDP", "SCTP");
    static final List<String> POLICY_TYPES = List.of("Ingress", "Egress");

    private NetworkPolicyValidation() {
    }

    static List<FieldError> spec(JsonNode spec) {
        List<FieldError> errs = new ArrayList<>(MetadataValidators.validateLabelSelector(spec.path("podSelector"),
                "spec.podSelector"));
        rules(spec.path("ingress"), "spec.ingress", "from", errs);
        rules(spec.path("egress"), "spec.egress", "to", errs);
        JsonNode types = spec.path("policyTypes");
        if (types.size() > POLICY_TYPES.size()) {
            List<String> values = new ArrayList<>();
            types.forEach(t -> values.add("\"" + t.asText() + "\""));
            errs.add(FieldError.invalid("spec.policyTypes", new GoSyntax("[]networking.PolicyType{" + String.join(", ", values)
                    + "}"), "may not specify more than two policyTypes"));
            return errs;
        }
        for (int i = 0; i < types.size(); i++) {
            if (!POLICY_TYPES.contains(types.get(i).asText())) {
                errs.add(FieldError.notSupported("spec.policyTypes[" + i + "]", types.get(i).asText(), POLICY_TYPES));
            }
        }
        return errs;
    }

    private static void rules(JsonNode rules, String path, String peers, List<FieldError> errs) {
        for (int i = 0; i < rules.size(); i++) {
            String rulePath = path + "[" + i + "]";
            JsonNode ports = rules.get(i).path("ports");
            for (int j = 0; j < ports.size(); j++) {
                errs.addAll(port(ports.get(j), rulePath + ".ports[" + j + "]"));
            }
            JsonNode list = rules.get(i).path(peers);
            for (int j = 0; j < list.size(); j++) {
                errs.addAll(peer(list.get(j), rulePath + "." + peers + "[" + j + "]"));
            }
        }
    }

    /** ValidateNetworkPolicyPort: a supported protocol, a port number or name, an end port only after a number. */
    static List<FieldError> port(JsonNode port, String path) {
        List<FieldError> errs = new ArrayList<>();
        JsonNode protocol = port.get("protocol");
        if (protocol != null && !protocol.isNull() && !PROTOCOLS.contains(protocol.asText())) {
            errs.add(FieldError.notSupported(path + ".protocol", protocol.asText(), PROTOCOLS));
        }
        JsonNode p = port.get("port");
        JsonNode endPort = port.get("endPort");
        boolean hasEnd = endPort != null && !endPort.isNull();
        if (p != null && !p.isNull()) {
            if (p.isIntegralNumber()) {
                if (!Ports.validPort(p.asLong())) {
                    errs.add(FieldError.invalid(path + ".port", p.asLong(), Ports.PORT_RANGE));
                }
                if (hasEnd) {
                    if (endPort.asLong() < p.asLong()) {
                        errs.add(FieldError.invalid(path + ".endPort", p.asLong(), "must be greater than or equal to `port`"));
                    }
                    if (!Ports.validPort(endPort.asLong())) {
                        errs.add(FieldError.invalid(path + ".endPort", endPort.asLong(), Ports.PORT_RANGE));
                    }
                }
            } else {
                if (hasEnd) {
                    errs.add(FieldError.invalid(path + ".endPort", endPort.asLong(),
                            "may not be specified when `port` is non-numeric"));
                }
                String name = p.asText();
                PodTemplateValidation.isValidPortName(name).forEach(m -> errs.add(FieldError.invalid(path + ".port", name, m)));
            }
        } else if (hasEnd) {
            errs.add(FieldError.invalid(path + ".endPort", endPort.asLong(), "may not be specified when `port` is not specified"));
        }
        return errs;
    }

    /** ValidateNetworkPolicyPeer: at least one selector or an ipBlock, and an ipBlock alone. */
    static List<FieldError> peer(JsonNode peer, String path) {
        List<FieldError> errs = new ArrayList<>();
        int peers = 0;
        for (String selector : new String[] {"podSelector", "namespaceSelector"}) {
            if (peer.hasNonNull(selector)) {
                peers++;
                errs.addAll(MetadataValidators.validateLabelSelector(peer.get(selector), path + "." + selector));
            }
        }
        boolean ipBlock = peer.hasNonNull("ipBlock");
        if (ipBlock) {
            peers++;
            errs.addAll(ipBlock(peer.get("ipBlock"), path + ".ipBlock"));
        }
        if (peers == 0) {
            errs.add(FieldError.required(path, "must specify a peer"));
        } else if (peers > 1 && ipBlock) {
            errs.add(FieldError.forbidden(path, "may not specify both ipBlock and another peer"));
        }
        return errs;
    }

    /** ValidateIPBlock: a valid CIDR, and exceptions strictly inside it. */
    static List<FieldError> ipBlock(JsonNode block, String path) {
        String cidr = block.path("cidr").asText("");
        if (cidr.isEmpty()) {
            return List.of(FieldError.required(path + ".cidr", ""));
        }
        CIDR network = CIDR.parseCIDRSloppy(cidr);
        if (network == null) {
            return List.of(invalidCIDR(path + ".cidr", cidr));
        }
        List<FieldError> errs = new ArrayList<>();
        JsonNode except = block.path("except");
        for (int i = 0; i < except.size(); i++) {
            String p = path + ".except[" + i + "]";
            String value = except.get(i).asText("");
            CIDR e = CIDR.parseCIDRSloppy(value);
            if (e == null) {
                errs.add(invalidCIDR(p, value));
            } else if (!network.contains(e.network()) || network.prefixLength() >= e.prefixLength()) {
                errs.add(FieldError.invalid(p, value, "must be a strict subset of `cidr`"));
            }
        }
        return errs;
    }

    private static FieldError invalidCIDR(String path, String value) {
        return FieldError.invalid(path, value, IPValidation.INVALID_CIDR);
    }
}
