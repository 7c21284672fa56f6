package io.kubelix.resource.core.service;

import io.kubelix.support.net.IP;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.resource.core.common.Nodes;

import java.util.HashMap;
import java.util.Map;

/**
 * A Service's defaults, as kube's SetDefaults_Service and the service REST's IP family
 * initialisation give them, and the update rules of its strategy (patchAllocatedValues,
 * dropTypeDependentFields): a PUT that leaves out the allocated cluster IP or node ports keeps
 * them, and a change of type away from NodePort or LoadBalancer drops the node ports it no longer
 * needs.
 */
final class ServiceDefaults {
    static final String CLUSTER_IP = "ClusterIP";
    static final String NODE_PORT = "NodePort";
    static final String LOAD_BALANCER = "LoadBalancer";
    static final String EXTERNAL_NAME = "ExternalName";
    static final String CLUSTER_IP_NONE = "None";
    static final String SINGLE_STACK = "SingleStack";
    static final String REQUIRE_DUAL_STACK = "RequireDualStack";
    /** kube's DefaultClientIPServiceAffinitySeconds: three hours. */
    static final int CLIENT_IP_TIMEOUT_SECONDS = 10800;

    private ServiceDefaults() {
    }

    /**
     * Defaults {@code svc} in place for a cluster whose service range is of {@code family}.
     * A spec of another JSON type is left for validation.
     */
    static void apply(ObjectNode svc, String family) {
        JsonNode specNode = svc.get("spec");
        if (specNode == null || specNode.isNull()) {
            specNode = svc.putObject("spec");
        }
        if (!(specNode instanceof ObjectNode spec)) {
            return;
        }
        if (Nodes.text(spec, "type").isEmpty()) {
            spec.put("type", CLUSTER_IP);
        }
        String type = Nodes.text(spec, "type");
        if (Nodes.text(spec, "sessionAffinity").isEmpty()) {
            spec.put("sessionAffinity", "None");
        }
        if ("ClientIP".equals(Nodes.text(spec, "sessionAffinity"))) {
            ObjectNode config = objectAt(spec, "sessionAffinityConfig");
            ObjectNode clientIP = config == null ? null : objectAt(config, "clientIP");
            if (clientIP != null && Nodes.isUnset(clientIP, "timeoutSeconds")) {
                clientIP.put("timeoutSeconds", CLIENT_IP_TIMEOUT_SECONDS);
            }
        }
        if (spec.get("ports") instanceof ArrayNode ports) {
            for (JsonNode p : ports) {
                if (p instanceof ObjectNode port) {
                    if (Nodes.text(port, "protocol").isEmpty()) {
                        port.put("protocol", "TCP");
                    }
                    JsonNode target = port.get("targetPort");
                    if ((target == null || target.isNull() || (target.isInt() && target.asInt() == 0)
                            || (target.isTextual() && target.asText().isEmpty())) && port.path("port").isIntegralNumber()) {
                        port.set("targetPort", port.get("port"));
                    }
                }
            }
        }
        if (needsNodePorts(type) && Nodes.text(spec, "externalTrafficPolicy").isEmpty()) {
            spec.put("externalTrafficPolicy", "Cluster");
        }
        if (!EXTERNAL_NAME.equals(type) && Nodes.text(spec, "internalTrafficPolicy").isEmpty()) {
            spec.put("internalTrafficPolicy", "Cluster");
        }
        if (LOAD_BALANCER.equals(type) && Nodes.isUnset(spec, "allocateLoadBalancerNodePorts")) {
            spec.put("allocateLoadBalancerNodePorts", true);
        }
        if (!EXTERNAL_NAME.equals(type)) {
            String clusterIP = Nodes.text(spec, "clusterIP");
            boolean noIPs = !(spec.get("clusterIPs") instanceof ArrayNode list) || list.isEmpty();
            if (!clusterIP.isEmpty() && noIPs) {
                spec.putArray("clusterIPs").add(clusterIP);
            } else if (clusterIP.isEmpty() && !noIPs && spec.path("clusterIPs").path(0).isTextual()) {
                spec.put("clusterIP", spec.path("clusterIPs").path(0).asText());
            }
            if (Nodes.isUnset(spec, "ipFamilyPolicy")) {
                // kube's initIPFamilyFields: headless services without a selector default to dual-stack.
                spec.put("ipFamilyPolicy", headlessWithoutSelector(spec) ? REQUIRE_DUAL_STACK : SINGLE_STACK);
            }
            if (!(spec.get("ipFamilies") instanceof ArrayNode families) || families.isEmpty()) {
                String first = spec.path("clusterIPs").path(0).asText("");
                IP firstIP = IP.parseIPSloppy(first);
                String fam = firstIP != null ? firstIP.family() : family;
                ArrayNode list = spec.putArray("ipFamilies").add(fam);
                if (headlessWithoutSelector(spec) && !SINGLE_STACK.equals(Nodes.text(spec, "ipFamilyPolicy"))) {
                    list.add(ServiceCIDR.IPV4.equals(fam) ? ServiceCIDR.IPV6 : ServiceCIDR.IPV4);
                }
            }
        }
    }

    /** A headless service without a selector, whose endpoints its owner manages; kube lets it be dual-stack anywhere. */
    static boolean headlessWithoutSelector(JsonNode spec) {
        return CLUSTER_IP_NONE.equals(Nodes.text(spec, "clusterIP")) && spec.path("selector").isEmpty();
    }

    /**
     * The defaults of an update: an unset ipFamilyPolicy is the stored one (kube's initIPFamilyFields),
     * then {@link #apply}, then {@link #patchAllocatedValues}.
     */
    static void applyUpdate(ObjectNode svc, ObjectNode old, String family) {
        if (svc.get("spec") instanceof ObjectNode spec && old.get("spec") instanceof ObjectNode oldSpec
                && !EXTERNAL_NAME.equals(Nodes.text(spec, "type")) && Nodes.isUnset(spec, "ipFamilyPolicy")
                && !Nodes.isUnset(oldSpec, "ipFamilyPolicy")) {
            spec.set("ipFamilyPolicy", oldSpec.get("ipFamilyPolicy"));
        }
        apply(svc, family);
        patchAllocatedValues(svc, old);
    }

    /** The status a new service starts with: an empty load balancer status, as kube serializes it. */
    static void resetStatus(ObjectNode svc) {
        svc.putObject("status").putObject("loadBalancer");
    }

    /**
     * patchAllocatedValues and dropTypeDependentFields: the allocated values the old object holds
     * and the new one leaves out are kept, as long as both types use them.
     */
    static void patchAllocatedValues(ObjectNode svc, ObjectNode old) {
        if (!(svc.get("spec") instanceof ObjectNode spec) || !(old.get("spec") instanceof ObjectNode oldSpec)) {
            return;
        }
        String type = Nodes.text(spec, "type");
        String oldType = Nodes.text(oldSpec, "type");
        if (!EXTERNAL_NAME.equals(type) && !EXTERNAL_NAME.equals(oldType)) {
            if (Nodes.text(spec, "clusterIP").isEmpty() && !Nodes.text(oldSpec, "clusterIP").isEmpty()) {
                spec.put("clusterIP", Nodes.text(oldSpec, "clusterIP"));
            }
            if ((!(spec.get("clusterIPs") instanceof ArrayNode ips) || ips.isEmpty())
                    && oldSpec.get("clusterIPs") instanceof ArrayNode oldIPs && !oldIPs.isEmpty()
                    && Nodes.text(spec, "clusterIP").equals(oldIPs.path(0).asText())) {
                spec.set("clusterIPs", oldIPs.deepCopy());
            }
        }
        boolean oldNeeds = needsNodePorts(oldType);
        if (oldNeeds && needsNodePorts(type)) {
            Map<String, Integer> used = new HashMap<>();
            oldSpec.path("ports").forEach(p -> {
                if (p.path("nodePort").asInt(0) != 0) {
                    used.put(p.path("port").asInt() + "/" + p.path("protocol").asText("TCP"), p.path("nodePort").asInt());
                }
            });
            if (spec.get("ports") instanceof ArrayNode ports) {
                for (JsonNode p : ports) {
                    if (p instanceof ObjectNode port && port.path("nodePort").asInt(0) == 0) {
                        Integer np = used.get(port.path("port").asInt() + "/" + port.path("protocol").asText("TCP"));
                        if (np != null) {
                            port.put("nodePort", np);
                        }
                    }
                }
            }
        }
        if (needsHealthCheck(oldSpec) && needsHealthCheck(spec) && spec.path("healthCheckNodePort").asInt(0) == 0) {
            spec.set("healthCheckNodePort", oldSpec.get("healthCheckNodePort"));
        }
        // dropTypeDependentFields: node ports the old type needed and the new one does not, left as they were.
        if (oldNeeds && !needsNodePorts(type) && spec.get("ports") instanceof ArrayNode ports) {
            Map<Integer, Integer> oldByPort = new HashMap<>();
            oldSpec.path("ports").forEach(p -> oldByPort.put(p.path("port").asInt(), p.path("nodePort").asInt(0)));
            for (JsonNode p : ports) {
                if (p instanceof ObjectNode port && port.has("nodePort")
                        && port.path("nodePort").asInt(0) == oldByPort.getOrDefault(port.path("port").asInt(), -1)) {
                    port.remove("nodePort");
                }
            }
        }
        if (needsHealthCheck(oldSpec) && !needsHealthCheck(spec)
                && spec.path("healthCheckNodePort").asInt(0) == oldSpec.path("healthCheckNodePort").asInt(0)) {
            spec.remove("healthCheckNodePort");
        }
        if (!EXTERNAL_NAME.equals(oldType) && EXTERNAL_NAME.equals(type)) {
            if (Nodes.text(spec, "clusterIP").equals(Nodes.text(oldSpec, "clusterIP"))) {
                spec.remove("clusterIP");
                spec.remove("clusterIPs");
            }
            spec.remove("ipFamilies");
            spec.remove("ipFamilyPolicy");
            spec.remove("internalTrafficPolicy");
        }
        if (needsNodePorts(oldType) && !needsNodePorts(type)
                && Nodes.text(spec, "externalTrafficPolicy").equals(Nodes.text(oldSpec, "externalTrafficPolicy"))) {
            spec.remove("externalTrafficPolicy");
        }
        if (LOAD_BALANCER.equals(oldType) && !LOAD_BALANCER.equals(type)) {
            spec.remove("allocateLoadBalancerNodePorts");
        }
    }

    /** Whether services of this type get node ports: NodePort and LoadBalancer. */
    static boolean needsNodePorts(String type) {
        return NODE_PORT.equals(type) || LOAD_BALANCER.equals(type);
    }

    /** shouldAllocateNodePorts: NodePort always, LoadBalancer unless allocateLoadBalancerNodePorts is false. */
    static boolean allocatesNodePorts(JsonNode spec) {
        String type = Nodes.text(spec, "type");
        return NODE_PORT.equals(type) || (LOAD_BALANCER.equals(type)
                && !(spec.path("allocateLoadBalancerNodePorts").isBoolean() && !spec.path("allocateLoadBalancerNodePorts").asBoolean()));
    }

    /** NeedsHealthCheck: a LoadBalancer with externalTrafficPolicy Local. */
    static boolean needsHealthCheck(JsonNode spec) {
        return LOAD_BALANCER.equals(Nodes.text(spec, "type")) && "Local".equals(Nodes.text(spec, "externalTrafficPolicy"));
    }

    private static ObjectNode objectAt(ObjectNode parent, String field) {
        return Nodes.object(parent, field);
    }
}
