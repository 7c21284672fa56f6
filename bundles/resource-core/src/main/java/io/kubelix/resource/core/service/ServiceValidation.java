package io.kubelix.resource.core.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.api.validation.MetadataValidators;
import io.kubelix.resource.core.common.FieldChecks;
import io.kubelix.resource.core.common.Nodes;
import io.kubelix.support.net.IP;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * kube's ValidateService and ValidateServiceUpdate (pkg/apis/core/validation): the name is a
 * DNS-1035 label, the type and the fields it depends on, ports (names required when there are
 * several, unique names and protocol/port pairs, valid numbers, protocols and target ports),
 * selector labels, session affinity, cluster and external IPs, traffic policies; on update the
 * cluster IPs may not change once set.
 */
final class ServiceValidation {
    static final List<String> TYPES = List.of("ClusterIP", "ExternalName", "LoadBalancer", "NodePort");
    static final List<String> AFFINITIES = List.of("ClientIP", "None");
    static final List<String> TRAFFIC_POLICIES = List.of("Cluster", "Local");
    static final List<String> IP_FAMILIES = List.of("IPv4", "IPv6");
    static final List<String> IP_FAMILY_POLICIES = List.of("PreferDualStack", "RequireDualStack", "SingleStack");
    /** kube refuses to expose the kubelet's port through a load balancer. */
    static final int KUBELET_PORT = 10250;

    private ServiceValidation() {
    }

    static List<FieldError> validate(ObjectNode svc, String clusterFamily) {
        List<FieldError> errs = new ArrayList<>();
        String name = Nodes.name(svc);
        if (!name.isEmpty() && io.kubelix.api.validation.NameValidators.isDNS1123Label(name).isEmpty()) {
            FieldChecks.isDNS1035Label(name).forEach(m -> errs.add(FieldError.invalid("metadata.name", name, m)));
        }
        ObjectNode spec = Nodes.object(svc, "spec");
        if (spec == null) {
            errs.add(FieldError.required("spec.type", ""));
            return errs;
        }
        String type = Nodes.text(spec, "type");
        String clusterIP = Nodes.text(spec, "clusterIP");
        boolean headless = ServiceDefaults.CLUSTER_IP_NONE.equals(clusterIP);
        ArrayNode ports = spec.get("ports") instanceof ArrayNode a ? a : null;
        if ((ports == null || ports.isEmpty()) && !headless && !ServiceDefaults.EXTERNAL_NAME.equals(type)) {
            errs.add(FieldError.required("spec.ports", ""));
        }
        switch (type) {
            case ServiceDefaults.LOAD_BALANCER -> {
                if (ports != null) {
                    for (int i = 0; i < ports.size(); i++) {
                        if (ports.get(i).path("port").asInt() == KUBELET_PORT) {
                            errs.add(FieldError.invalid("spec.ports[" + i + "]", KUBELET_PORT,
                                    "may not expose port " + KUBELET_PORT + " externally since it is used by kubelet"));
                        }
                    }
                }
                if (headless) {
                    errs.add(FieldError.invalid("spec.clusterIP", clusterIP, "may not be set to 'None' for LoadBalancer services"));
                }
            }
            case ServiceDefaults.NODE_PORT -> {
                if (headless) {
                    errs.add(FieldError.invalid("spec.clusterIP", clusterIP, "may not be set to 'None' for NodePort services"));
                }
            }
            case ServiceDefaults.EXTERNAL_NAME -> {
                if (!clusterIP.isEmpty()) {
                    errs.add(FieldError.forbidden("spec.clusterIP", "may not be set for ExternalName services"));
                }
                String externalName = Nodes.text(spec, "externalName");
                if (externalName.isEmpty()) {
                    errs.add(FieldError.required("spec.externalName", ""));
                } else {
                    String trimmed = externalName.endsWith(".") ? externalName.substring(0, externalName.length() - 1) : externalName;
                    FieldChecks.dns1123Subdomain(trimmed, "spec.externalName").forEach(e ->
                            errs.add(FieldError.invalid("spec.externalName", externalName, e.detail())));
                }
            }
            default -> {
            }
        }
        validatePorts(ports, type, headless, errs);
        if (spec.get("selector") != null && !spec.get("selector").isNull()) {
            errs.addAll(MetadataValidators.validateLabels(spec.get("selector"), "spec.selector"));
        }
        String affinity = Nodes.text(spec, "sessionAffinity");
        errs.addAll(FieldChecks.oneOf(affinity, "spec.sessionAffinity", AFFINITIES));
        if ("ClientIP".equals(affinity)) {
            JsonNode timeout = spec.path("sessionAffinityConfig").path("clientIP").path("timeoutSeconds");
            if (timeout.isMissingNode() || timeout.isNull()) {
                errs.add(FieldError.required("spec.sessionAffinityConfig", "when session affinity type is ClientIP"));
            } else if (timeout.asLong() <= 0 || timeout.asLong() > 86400) {
                errs.add(FieldError.invalid("spec.sessionAffinityConfig.clientIP.timeoutSeconds", timeout.asLong(),
                        "must be greater than 0 and less than 86400"));
            }
        } else if ("None".equals(affinity) && spec.has("sessionAffinityConfig") && !spec.get("sessionAffinityConfig").isNull()) {
            errs.add(FieldError.forbidden("spec.sessionAffinityConfig", "must not be set when session affinity is None"));
        }
        validateClusterIPs(spec, clusterIP, clusterFamily, errs);
        if (spec.get("externalIPs") instanceof ArrayNode externalIPs) {
            for (int i = 0; i < externalIPs.size(); i++) {
                errs.addAll(FieldChecks.ip(externalIPs.get(i).asText(""), "spec.externalIPs[" + i + "]"));
            }
        }
        errs.addAll(FieldChecks.oneOf(type, "spec.type", TYPES));
        String external = Nodes.text(spec, "externalTrafficPolicy");
        if (!external.isEmpty()) {
            if (!ServiceDefaults.needsNodePorts(type)) {
                errs.add(FieldError.invalid("spec.externalTrafficPolicy", external,
                        "may only be set for externally-accessible services"));
            } else {
                errs.addAll(FieldChecks.oneOf(external, "spec.externalTrafficPolicy", TRAFFIC_POLICIES));
            }
        } else if (ServiceDefaults.needsNodePorts(type)) {
            errs.add(FieldError.required("spec.externalTrafficPolicy", ""));
        }
        errs.addAll(FieldChecks.optionalOneOf(spec, "internalTrafficPolicy", "spec.internalTrafficPolicy", TRAFFIC_POLICIES));
        int healthCheck = spec.path("healthCheckNodePort").asInt(0);
        if (healthCheck != 0 && !ServiceDefaults.needsHealthCheck(spec)) {
            errs.add(FieldError.invalid("spec.healthCheckNodePort", healthCheck,
                    "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
        }
        if (spec.has("allocateLoadBalancerNodePorts") && !spec.get("allocateLoadBalancerNodePorts").isNull()
                && !ServiceDefaults.LOAD_BALANCER.equals(type)) {
            errs.add(FieldError.forbidden("spec.allocateLoadBalancerNodePorts",
                    "may only be used when `type` is 'LoadBalancer'"));
        }
        return errs;
    }

    private static void validatePorts(ArrayNode ports, String type, boolean headless, List<FieldError> errs) {
        if (ports == null) {
            return;
        }
        Set<String> names = new HashSet<>();
        Set<String> pairs = new HashSet<>();
        Set<String> nodePorts = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            String p = "spec.ports[" + i + "]";
            JsonNode port = ports.get(i);
            String portName = Nodes.text(port, "name");
            if (ports.size() > 1 && portName.isEmpty()) {
                errs.add(FieldError.required(p + ".name", ""));
            } else if (!portName.isEmpty()) {
                errs.addAll(FieldChecks.dns1123Label(portName, p + ".name"));
                if (!names.add(portName)) {
                    errs.add(FieldError.duplicate(p + ".name", portName));
                }
            }
            if (!FieldChecks.validPort(port.get("port"))) {
                errs.add(FieldError.invalid(p + ".port", port.path("port").asLong(0), FieldChecks.PORT_RANGE));
            }
            String protocol = Nodes.text(port, "protocol");
            errs.addAll(FieldChecks.oneOf(protocol, p + ".protocol", FieldChecks.PROTOCOLS));
            errs.addAll(FieldChecks.portNumOrName(port.get("targetPort"), p + ".targetPort"));
            JsonNode appProtocol = port.get("appProtocol");
            if (appProtocol != null && appProtocol.isTextual()) {
                io.kubelix.api.validation.NameValidators.isQualifiedName(appProtocol.asText()).forEach(m ->
                        errs.add(FieldError.invalid(p + ".appProtocol", appProtocol.asText(), m)));
            }
            int nodePort = port.path("nodePort").asInt(0);
            if (nodePort != 0) {
                if (ServiceDefaults.CLUSTER_IP.equals(type) || ServiceDefaults.EXTERNAL_NAME.equals(type)) {
                    errs.add(FieldError.forbidden(p + ".nodePort", "may not be used when `type` is '" + type + "'"));
                } else if (nodePort < 1 || nodePort > 65535) {
                    errs.add(FieldError.invalid(p + ".nodePort", nodePort, FieldChecks.PORT_RANGE));
                } else if (!nodePorts.add(protocol + "/" + nodePort)) {
                    errs.add(FieldError.duplicate(p + ".nodePort", nodePort));
                }
            }
            if (!pairs.add(protocol + "/" + port.path("port").asLong(0))) {
                errs.add(FieldError.duplicate(p, new GoSyntax("core.ServicePort{Name:\"\", Protocol:\"" + protocol
                        + "\", AppProtocol:(*string)(nil), Port:" + port.path("port").asLong(0)
                        + ", TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:\"\"}, NodePort:0}")));
            }
        }
    }

    private static void validateClusterIPs(ObjectNode spec, String clusterIP, String clusterFamily, List<FieldError> errs) {
        if (ServiceDefaults.EXTERNAL_NAME.equals(Nodes.text(spec, "type"))) {
            return;
        }
        List<String> ips = new ArrayList<>();
        if (spec.get("clusterIPs") instanceof ArrayNode list) {
            list.forEach(n -> ips.add(n.asText("")));
        }
        if (!clusterIP.isEmpty() && !ips.isEmpty() && !clusterIP.equals(ips.get(0))) {
            errs.add(FieldError.invalid("spec.clusterIPs", GoSyntax.strings(ips), "first value must match `clusterIP`"));
        }
        if (!clusterIP.isEmpty() && !ServiceDefaults.CLUSTER_IP_NONE.equals(clusterIP) && IP.parseIPSloppy(clusterIP) == null) {
            errs.add(FieldError.invalid("spec.clusterIP", clusterIP, "must be empty, 'None', or a valid IP address"));
        }
        boolean anyFamily = ServiceDefaults.headlessWithoutSelector(spec);
        if (ips.size() > 1 && !anyFamily) {
            errs.add(FieldError.invalid("spec.clusterIPs", GoSyntax.strings(ips),
                    "may not have more than one IP on a single-stack cluster"));
        }
        if (!anyFamily && ServiceDefaults.REQUIRE_DUAL_STACK.equals(Nodes.text(spec, "ipFamilyPolicy"))) {
            errs.add(FieldError.invalid("spec.ipFamilyPolicy", ServiceDefaults.REQUIRE_DUAL_STACK,
                    "this cluster is not configured for dual-stack services"));
        }
        if (spec.get("ipFamilies") instanceof ArrayNode families) {
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < families.size(); i++) {
                String family = families.get(i).asText("");
                List<FieldError> bad = FieldChecks.oneOf(family, "spec.ipFamilies[" + i + "]", IP_FAMILIES);
                if (!bad.isEmpty()) {
                    errs.addAll(bad);
                } else if (!seen.add(family)) {
                    errs.add(FieldError.duplicate("spec.ipFamilies[" + i + "]", family));
                } else if (!family.equals(clusterFamily) && !anyFamily) {
                    errs.add(FieldError.invalid("spec.ipFamilies[" + i + "]", family, "not configured on this cluster"));
                }
            }
        }
        errs.addAll(FieldChecks.optionalOneOf(spec, "ipFamilyPolicy", "spec.ipFamilyPolicy", IP_FAMILY_POLICIES));
    }

    /** ValidateServiceUpdate: the cluster IPs may not change once set, except to or from ExternalName. */
    static List<FieldError> validateUpdate(ObjectNode svc, ObjectNode old, String clusterFamily) {
        List<FieldError> errs = new ArrayList<>(validate(svc, clusterFamily));
        JsonNode spec = svc.path("spec");
        JsonNode oldSpec = old.path("spec");
        String type = Nodes.text(spec, "type");
        String oldType = Nodes.text(oldSpec, "type");
        if (ServiceDefaults.EXTERNAL_NAME.equals(type) || ServiceDefaults.EXTERNAL_NAME.equals(oldType)) {
            return errs;
        }
        List<String> ips = new ArrayList<>();
        spec.path("clusterIPs").forEach(n -> ips.add(n.asText("")));
        List<String> oldIPs = new ArrayList<>();
        oldSpec.path("clusterIPs").forEach(n -> oldIPs.add(n.asText("")));
        if (ips.isEmpty() && !oldIPs.isEmpty()) {
            errs.add(FieldError.invalid("spec.clusterIPs[0]", GoSyntax.strings(ips), "primary clusterIP can not be unset"));
            return errs;
        }
        for (int i = 0; i < Math.min(ips.size(), oldIPs.size()); i++) {
            if (!ips.get(i).equals(oldIPs.get(i))) {
                errs.add(FieldError.invalid("spec.clusterIPs[" + i + "]", GoSyntax.strings(ips), "may not change once set"));
            }
        }
        return errs;
    }
}
