package io.kubelix.resource.core.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.validation.GoSyntax;
import io.kubelix.resource.core.common.Nodes;
import io.kubelix.support.net.IP;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube's service Allocators (pkg/registry/core/service/storage/alloc.go): the cluster IP and node
 * port a service gets on create and update, and gives back on delete. A requested value is
 * reserved or refused with a 422 on {@code spec.clusterIPs} or {@code spec.ports[i].nodePort}; a
 * missing one is drawn from the range. Each create or update works in a {@link Transaction}: what
 * it took is given back when the write fails ({@link Transaction#revert}), what the old object held
 * and the new one no longer needs is given back once the write succeeded ({@link Transaction#commit}).
 * A dry run checks everything and takes nothing.
 */
final class ServiceAllocators {
    static final String IP_KEY = "/ranges/serviceips";
    static final String NODE_PORT_KEY = "/ranges/servicenodeports";
    static final String RANGES_PREFIX = "/ranges";

    private static final Logger LOG = LoggerFactory.getLogger(ServiceAllocators.class);

    private final ServiceCIDR cidr;
    private final NodePortRange portRange;
    private final RangeAllocator ips;
    private final RangeAllocator nodePorts;

    /** @param ranges the raw storage under {@link #RANGES_PREFIX} */
    ServiceAllocators(StorageInterface ranges, ServiceCIDR cidr, NodePortRange portRange) {
        this.cidr = cidr;
        this.portRange = portRange;
        this.ips = new RangeAllocator(ranges, IP_KEY, cidr.cidr(), cidr.size());
        this.nodePorts = new RangeAllocator(ranges, NODE_PORT_KEY, portRange.toString(), portRange.size());
    }

    ServiceCIDR cidr() {
        return cidr;
    }

    NodePortRange portRange() {
        return portRange;
    }

    RangeAllocator ipAllocator() {
        return ips;
    }

    RangeAllocator nodePortAllocator() {
        return nodePorts;
    }

    /** What one create or update took, and what it gives back once it succeeded. */
    final class Transaction {
        private final boolean dryRun;
        private final List<Integer> ipsTaken = new ArrayList<>();
        private final List<Integer> portsTaken = new ArrayList<>();
        private final Set<Integer> ipsToRelease = new LinkedHashSet<>();
        private final Set<Integer> portsToRelease = new LinkedHashSet<>();

        private Transaction(boolean dryRun) {
            this.dryRun = dryRun;
        }

        /** The write failed: gives back what this transaction took. */
        void revert() {
            if (dryRun) {
                return;
            }
            ipsTaken.forEach(ips::release);
            portsTaken.forEach(p -> nodePorts.release(p - portRange.base()));
            ipsTaken.clear();
            portsTaken.clear();
        }

        /** The write succeeded: gives back what the old object held and the new one does not. */
        void commit() {
            if (dryRun) {
                return;
            }
            ipsToRelease.forEach(ips::release);
            portsToRelease.forEach(p -> nodePorts.release(p - portRange.base()));
        }

        List<String> allocatedIPs() {
            return ipsTaken.stream().map(cidr::addressAt).toList();
        }

        List<Integer> allocatedNodePorts() {
            return List.copyOf(portsTaken);
        }
    }

    /** allocateCreate: the cluster IP and node ports of a new (defaulted) service. */
    Transaction allocateCreate(ObjectNode svc, boolean dryRun) {
        Transaction txn = new Transaction(dryRun);
        try {
            ObjectNode spec = spec(svc);
            if (spec == null) {
                return txn;
            }
            String type = Nodes.text(spec, "type");
            if (!ServiceDefaults.EXTERNAL_NAME.equals(type)) {
                allocateClusterIP(svc, spec, txn);
            }
            allocateNodePorts(svc, spec, Set.of(), txn);
            if (ServiceDefaults.needsHealthCheck(spec)) {
                allocateHealthCheckNodePort(svc, spec, txn);
            }
            return txn;
        } catch (RuntimeException e) {
            txn.revert();
            throw e;
        }
    }

    /** allocateUpdate: what a changed service takes, and gives back, against its stored version. */
    Transaction allocateUpdate(ObjectNode svc, ObjectNode old, boolean dryRun) {
        Transaction txn = new Transaction(dryRun);
        try {
            ObjectNode spec = spec(svc);
            ObjectNode oldSpec = spec(old);
            if (spec == null || oldSpec == null) {
                return txn;
            }
            String type = Nodes.text(spec, "type");
            String oldType = Nodes.text(oldSpec, "type");
            boolean external = ServiceDefaults.EXTERNAL_NAME.equals(type);
            boolean oldExternal = ServiceDefaults.EXTERNAL_NAME.equals(oldType);
            if (oldExternal && !external) {
                allocateClusterIP(svc, spec, txn);
            } else if (!oldExternal && external) {
                for (String ip : clusterIPs(oldSpec)) {
                    int offset = cidr.offsetOf(ip);
                    if (offset >= 0) {
                        txn.ipsToRelease.add(offset);
                    }
                }
            }
            Set<Integer> oldPorts = new LinkedHashSet<>(nodePortsOf(oldSpec, false));
            if (ServiceDefaults.needsNodePorts(type)) {
                allocateNodePorts(svc, spec, oldPorts, txn);
            }
            Set<Integer> kept = new LinkedHashSet<>(nodePortsOf(spec, false));
            for (int p : oldPorts) {
                if (!kept.contains(p) && portRange.contains(p)) {
                    txn.portsToRelease.add(p);
                }
            }
            boolean neededCheck = ServiceDefaults.needsHealthCheck(oldSpec);
            boolean needsCheck = ServiceDefaults.needsHealthCheck(spec);
            int oldCheck = oldSpec.path("healthCheckNodePort").asInt(0);
            if (!neededCheck && needsCheck) {
                allocateHealthCheckNodePort(svc, spec, txn);
            } else if (neededCheck && !needsCheck && portRange.contains(oldCheck)) {
                txn.portsToRelease.add(oldCheck);
            }
            return txn;
        } catch (RuntimeException e) {
            txn.revert();
            throw e;
        }
    }

    /** releaseAllocatedResources: what a deleted service held. */
    void releaseAll(ObjectNode svc) {
        ObjectNode spec = spec(svc);
        if (spec == null) {
            return;
        }
        if (!ServiceDefaults.EXTERNAL_NAME.equals(Nodes.text(spec, "type"))) {
            for (String ip : clusterIPs(spec)) {
                int offset = cidr.offsetOf(ip);
                if (offset >= 0) {
                    ips.release(offset);
                }
            }
        }
        for (int p : nodePortsOf(spec, true)) {
            if (portRange.contains(p)) {
                nodePorts.release(p - portRange.base());
            }
        }
        LOG.debug("released the cluster IPs and node ports of service {}", name(svc));
    }

    private void allocateClusterIP(ObjectNode svc, ObjectNode spec, Transaction txn) {
        String ip = Nodes.text(spec, "clusterIP");
        if (ip.isEmpty() && spec.path("clusterIPs").path(0).isTextual()) {
            ip = spec.path("clusterIPs").path(0).asText();
        }
        if (ServiceDefaults.CLUSTER_IP_NONE.equals(ip)) {
            return;
        }
        if (ip.isEmpty()) {
            int offset = txn.dryRun ? ips.peekNext() : ips.allocateNext();
            if (offset < 0) {
                throw StatusException.internalError("failed to allocate a serviceIP: range is full", null);
            }
            if (!txn.dryRun) {
                txn.ipsTaken.add(offset);
            }
            String allocated = cidr.addressAt(offset);
            spec.put("clusterIP", allocated);
            spec.putArray("clusterIPs").add(allocated);
            return;
        }
        if (IP.parseIPSloppy(ip) == null) {
            return; // validation answers for a malformed address
        }
        String family = IP.parseIPSloppy(ip).family();
        if (!family.equals(cidr.family())) {
            throw StatusException.invalid("Service", "", name(svc), List.of(FieldError.invalid("spec.clusterIPs[0]",
                    GoSyntax.strings(clusterIPs(spec)), family + " is not configured on this cluster")));
        }
        int offset = cidr.offsetOf(ip);
        String failure = null;
        if (offset < 0) {
            failure = "the provided IP (" + ip + ") is not in the valid range. The range of valid IPs is " + cidr.cidr();
        } else if (txn.dryRun ? ips.isAllocated(offset) : !ips.allocate(offset)) {
            failure = "provided IP is already allocated";
        }
        if (failure != null) {
            throw StatusException.invalid("Service", "", name(svc), List.of(FieldError.invalid("spec.clusterIPs",
                    GoSyntax.strings(clusterIPs(spec)), "failed to allocate IP " + ip + ": " + failure)));
        }
        if (!txn.dryRun) {
            txn.ipsTaken.add(offset);
        }
    }

    /**
     * Node ports of a NodePort or LoadBalancer service: each port's requested one is reserved
     * unless the old object held it (or another port of this service took it in this request), an
     * unset one is drawn when the type allocates node ports, reusing the one given to another port
     * with the same number (TCP and UDP on 53 share one node port, as in kube).
     */
    private void allocateNodePorts(ObjectNode svc, ObjectNode spec, Set<Integer> held, Transaction txn) {
        String type = Nodes.text(spec, "type");
        if (!ServiceDefaults.needsNodePorts(type) || !(spec.get("ports") instanceof ArrayNode ports)) {
            return;
        }
        boolean allocateMissing = ServiceDefaults.allocatesNodePorts(spec);
        Map<Integer, Integer> byServicePort = new HashMap<>();
        Set<Integer> taken = new LinkedHashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            if (!(ports.get(i) instanceof ObjectNode port)) {
                continue;
            }
            JsonNode npNode = port.get("nodePort");
            int np = npNode != null && npNode.canConvertToInt() ? npNode.asInt() : 0;
            int servicePort = port.path("port").asInt(0);
            if (np != 0) {
                if (!held.contains(np) && !taken.contains(np)) {
                    reservePort(svc, "spec.ports[" + i + "].nodePort", np, txn);
                    taken.add(np);
                }
                byServicePort.putIfAbsent(servicePort, np);
            } else if (allocateMissing) {
                Integer shared = byServicePort.get(servicePort);
                int chosen = shared != null ? shared : nextPort(txn);
                port.put("nodePort", chosen);
                taken.add(chosen);
                byServicePort.putIfAbsent(servicePort, chosen);
            }
        }
    }

    private void allocateHealthCheckNodePort(ObjectNode svc, ObjectNode spec, Transaction txn) {
        int requested = spec.path("healthCheckNodePort").asInt(0);
        if (requested != 0) {
            reservePort(svc, "spec.healthCheckNodePort", requested, txn);
        } else {
            spec.put("healthCheckNodePort", nextPort(txn));
        }
    }

    private void reservePort(ObjectNode svc, String field, int port, Transaction txn) {
        String failure = null;
        if (!portRange.contains(port)) {
            failure = "provided port is not in the valid range. The range of valid ports is " + portRange;
        } else if (txn.dryRun ? nodePorts.isAllocated(port - portRange.base()) : !nodePorts.allocate(port - portRange.base())) {
            failure = "provided port is already allocated";
        }
        if (failure != null) {
            throw StatusException.invalid("Service", "", name(svc), List.of(FieldError.invalid(field, port, failure)));
        }
        if (!txn.dryRun) {
            txn.portsTaken.add(port);
        }
    }

    private int nextPort(Transaction txn) {
        int offset = txn.dryRun ? nodePorts.peekNext() : nodePorts.allocateNext();
        if (offset < 0) {
            throw StatusException.internalError("failed to allocate a nodePort: range is full", null);
        }
        int port = portRange.base() + offset;
        if (!txn.dryRun) {
            txn.portsTaken.add(port);
        }
        return port;
    }

    /** The service's cluster IPs ({@code clusterIPs}, else {@code clusterIP}), without {@code None}. */
    static List<String> clusterIPs(JsonNode spec) {
        List<String> out = new ArrayList<>();
        if (spec.get("clusterIPs") instanceof ArrayNode list && !list.isEmpty()) {
            list.forEach(n -> out.add(n.asText("")));
        } else if (!Nodes.text(spec, "clusterIP").isEmpty()) {
            out.add(Nodes.text(spec, "clusterIP"));
        }
        out.removeIf(ip -> ip.isEmpty() || ServiceDefaults.CLUSTER_IP_NONE.equals(ip));
        return out;
    }

    /** The node ports a service's ports name, and with {@code withHealthCheck} its healthCheckNodePort. */
    static List<Integer> nodePortsOf(JsonNode spec, boolean withHealthCheck) {
        List<Integer> out = new ArrayList<>();
        if (spec.get("ports") instanceof ArrayNode ports) {
            for (JsonNode p : ports) {
                int np = p.path("nodePort").asInt(0);
                if (np != 0 && !out.contains(np)) {
                    out.add(np);
                }
            }
        }
        int check = spec.path("healthCheckNodePort").asInt(0);
        if (withHealthCheck && check != 0 && !out.contains(check)) {
            out.add(check);
        }
        return out;
    }

    private static ObjectNode spec(ObjectNode svc) {
        return svc == null ? null : Nodes.object(svc, "spec");
    }

    private static String name(ObjectNode svc) {
        return Nodes.name(svc);
    }
}
