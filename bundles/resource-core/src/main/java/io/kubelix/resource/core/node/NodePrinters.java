package io.kubelix.resource.core.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.resource.core.common.Nodes;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The server-side Table of nodes, as kube's printNode: NAME, STATUS (Ready, NotReady or Unknown
 * from the Ready condition, plus SchedulingDisabled when cordoned), ROLES (from the
 * {@code node-role.kubernetes.io/<role>} and {@code kubernetes.io/role} labels), AGE, VERSION, and
 * with {@code -o wide} INTERNAL-IP, EXTERNAL-IP, OS-IMAGE, KERNEL-VERSION and CONTAINER-RUNTIME.
 */
final class NodePrinters {
    static final String ROLE_PREFIX = "node-role.kubernetes.io/";
    static final String ROLE_LABEL = "kubernetes.io/role";
    private static final String ADDRESSES = "List of addresses reachable to the node. Queried from cloud provider, if "
            + "available. More info: https://kubernetes.io/docs/reference/node/node-status/#addresses Note: This field "
            + "is declared as mergeable, but the merge key is not sufficiently unique, which can cause data corruption "
            + "when it is merged. Callers should instead use a full-replacement patch. See https://pr.k8s.io/79391 for an "
            + "example. Consumers should assume that addresses can change during the lifetime of a Node. However, there "
            + "are some exceptions where this may not be possible, such as Pods that inherit a Node's address in its own "
            + "spec or status (e.g. DaemonSet Pods with hostNetwork). Clients should not react to address changes "
            + "(e.g. restarting their pods).";

    private NodePrinters() {
    }

    static List<TableColumn> nodeColumns() {
        return List.of(TableColumn.nameColumn(),
                column("Status", "The status of the node", 0, NodePrinters::status),
                column("Roles", "The roles of the node", 0, NodePrinters::roles),
                TableColumn.ageColumn(),
                column("Version", "Kubelet Version reported by the node.", 0, o -> info(o, "kubeletVersion")),
                column("Internal-IP", ADDRESSES, 1, o -> address(o, "InternalIP")),
                column("External-IP", ADDRESSES, 1, o -> address(o, "ExternalIP")),
                column("OS-Image", "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy)).",
                        1, o -> unknownIfEmpty(info(o, "osImage"))),
                column("Kernel-Version", "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64).",
                        1, o -> unknownIfEmpty(info(o, "kernelVersion"))),
                column("Container-Runtime", "ContainerRuntime Version reported by the node through runtime remote API "
                        + "(e.g. containerd://1.4.2).", 1, o -> unknownIfEmpty(info(o, "containerRuntimeVersion"))));
    }

    private static TableColumn column(String name, String description, int priority,
                                      java.util.function.Function<ObjectNode, Object> cell) {
        return new TableColumn(name, "string", "", description, priority, cell);
    }

    static String status(ObjectNode node) {
        List<String> status = new ArrayList<>();
        for (JsonNode c : node.path("status").path("conditions")) {
            if (Nodes.text(c, "type").equals("Ready")) {
                status.clear();
                status.add(Nodes.text(c, "status").equals("True") ? "Ready" : "NotReady");
            }
        }
        if (status.isEmpty()) {
            status.add("Unknown");
        }
        if (Nodes.isTrue(node.path("spec"), "unschedulable")) {
            status.add("SchedulingDisabled");
        }
        return String.join(",", status);
    }

    /** findNodeRoles: the roles named by labels, sorted, or {@code <none>}. */
    static String roles(ObjectNode node) {
        TreeSet<String> roles = new TreeSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.path("metadata").path("labels").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> label = it.next();
            if (label.getKey().startsWith(ROLE_PREFIX)) {
                String role = label.getKey().substring(ROLE_PREFIX.length());
                if (!role.isEmpty()) {
                    roles.add(role);
                }
            } else if (label.getKey().equals(ROLE_LABEL) && !label.getValue().asText("").isEmpty()) {
                roles.add(label.getValue().asText());
            }
        }
        return roles.isEmpty() ? "<none>" : String.join(",", roles);
    }

    private static String info(ObjectNode node, String field) {
        return Nodes.text(node.path("status").path("nodeInfo"), field);
    }

    private static String address(ObjectNode node, String type) {
        for (JsonNode a : node.path("status").path("addresses")) {
            if (Nodes.text(a, "type").equals(type)) {
                return Nodes.text(a, "address");
            }
        }
        return "<none>";
    }

    private static String unknownIfEmpty(String s) {
        return s.isEmpty() ? "<unknown>" : s;
    }
}
