package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.HumanDuration;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.resource.core.common.Nodes;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The server-side Table of pods, as kube's printPod (pkg/printers/internalversion/printers.go):
 * NAME, READY, STATUS, RESTARTS, AGE, and with {@code -o wide} IP, NODE, NOMINATED NODE and
 * READINESS GATES. STATUS follows kube's reading of the phase, the status reason, init and regular
 * container states, and {@code Terminating} for a pod being deleted.
 */
final class PodPrinters {
    static final String READINESS_GATES_DESCRIPTION = "If specified, all readiness gates will be evaluated for pod "
            + "readiness. A pod is ready when all its containers are ready AND all conditions specified in the readiness "
            + "gates have status equal to \"True\" More info: "
            + "https://git.k8s.io/enhancements/keps/sig-network/580-pod-readiness-gates";

    private PodPrinters() {
    }

    static List<TableColumn> podColumns() {
        return podColumns(Instant::now);
    }

    /** The columns, with {@code now} the clock of RESTARTS' "(5m ago)". */
    static List<TableColumn> podColumns(Supplier<Instant> now) {
        return List.of(TableColumn.nameColumn(),
                column("Ready", "The aggregate readiness state of this pod for accepting traffic.", 0,
                        o -> new PodRow(o).ready()),
                column("Status", "The aggregate status of the containers in this pod.", 0, o -> new PodRow(o).reason),
                column("Restarts", "The number of times the containers in this pod have been restarted and when the last "
                        + "container in this pod has restarted.", 0, o -> new PodRow(o).restarts(now.get())),
                TableColumn.ageColumn(),
                column("IP", "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet "
                        + "allocated.", 1, PodPrinters::ip),
                column("Node", "NodeName indicates in which node this pod is scheduled. If empty, this pod is a candidate "
                        + "for scheduling by the scheduler defined in schedulerName. Once this field is set, the kubelet for "
                        + "this node becomes responsible for the lifecycle of this pod. This field should not be used to "
                        + "express a desire for the pod to be scheduled on a specific node. "
                        + "https://kubernetes.io/docs/concepts/scheduling-eviction/assign-pod-node/#nodename", 1,
                        o -> orNone(Nodes.text(o.path("spec"), "nodeName"))),
                column("Nominated Node", "nominatedNodeName is set only when this pod preempts other pods on the node, "
                        + "but it cannot be scheduled right away as preemption victims receive their graceful termination "
                        + "periods. This field does not guarantee that the pod will be scheduled on this node.", 1,
                        o -> orNone(Nodes.text(o.path("status"), "nominatedNodeName"))),
                column("Readiness Gates", READINESS_GATES_DESCRIPTION, 1, PodPrinters::readinessGates));
    }

    private static TableColumn column(String name, String description, int priority,
                                      java.util.function.Function<ObjectNode, Object> cell) {
        return new TableColumn(name, "string", "", description, priority, cell);
    }

    private static String ip(ObjectNode o) {
        JsonNode ips = o.path("status").path("podIPs");
        String ip = ips.size() > 0 ? Nodes.text(ips.get(0), "ip") : "";
        return orNone(ip);
    }

    private static String readinessGates(ObjectNode o) {
        JsonNode gates = o.path("spec").path("readinessGates");
        if (gates.isEmpty()) {
            return "<none>";
        }
        int trueConditions = 0;
        for (JsonNode gate : gates) {
            for (JsonNode c : o.path("status").path("conditions")) {
                if (Nodes.text(c, "type").equals(Nodes.text(gate, "conditionType"))) {
                    if (Nodes.text(c, "status").equals("True")) {
                        trueConditions++;
                    }
                    break;
                }
            }
        }
        return trueConditions + "/" + gates.size();
    }

    static String orNone(String s) {
        return s.isEmpty() ? "<none>" : s;
    }

    /** What kube's printPod computes for one pod: ready and total containers, restarts, the STATUS reason. */
    static final class PodRow {
        int ready;
        int total;
        int restarts;
        Instant lastRestart;
        String reason;

        PodRow(ObjectNode pod) {
            JsonNode spec = pod.path("spec");
            JsonNode status = pod.path("status");
            String phase = Nodes.text(status, "phase");
            reason = Nodes.text(status, "reason").isEmpty() ? phase : Nodes.text(status, "reason");
            for (JsonNode c : status.path("conditions")) {
                if (Nodes.text(c, "type").equals("PodScheduled") && Nodes.text(c, "reason").equals("SchedulingGated")) {
                    reason = "SchedulingGated";
                }
            }
            total = spec.path("containers").size();
            Set<String> sidecars = new HashSet<>();
            for (JsonNode c : spec.path("initContainers")) {
                if (Nodes.text(c, "restartPolicy").equals("Always")) {
                    sidecars.add(Nodes.text(c, "name"));
                    total++;
                }
            }
            boolean initializing = false;
            int sidecarRestarts = 0;
            Instant sidecarLastRestart = null;
            JsonNode initStatuses = status.path("initContainerStatuses");
            for (int i = 0; i < initStatuses.size(); i++) {
                JsonNode c = initStatuses.get(i);
                restarts += c.path("restartCount").asInt(0);
                lastRestart = later(lastRestart, finishedAt(c));
                boolean sidecar = sidecars.contains(Nodes.text(c, "name"));
                if (sidecar) {
                    sidecarRestarts += c.path("restartCount").asInt(0);
                    sidecarLastRestart = later(sidecarLastRestart, finishedAt(c));
                }
                JsonNode terminated = c.path("state").path("terminated");
                JsonNode waiting = c.path("state").path("waiting");
                if (!terminated.isMissingNode() && terminated.path("exitCode").asInt(0) == 0) {
                    continue;
                }
                if (sidecar && c.path("started").asBoolean(false)) {
                    if (c.path("ready").asBoolean(false)) {
                        ready++;
                    }
                    continue;
                }
                if (!terminated.isMissingNode()) {
                    reason = Nodes.text(terminated, "reason").isEmpty()
                            ? (terminated.path("signal").asInt(0) != 0 ? "Init:Signal:" + terminated.path("signal").asInt()
                            : "Init:ExitCode:" + terminated.path("exitCode").asInt())
                            : "Init:" + Nodes.text(terminated, "reason");
                } else if (!Nodes.text(waiting, "reason").isEmpty() && !Nodes.text(waiting, "reason").equals("PodInitializing")) {
                    reason = "Init:" + Nodes.text(waiting, "reason");
                } else {
                    reason = "Init:" + i + "/" + spec.path("initContainers").size();
                }
                initializing = true;
                break;
            }
            if (!initializing || conditionTrue(status, "Initialized")) {
                restarts = sidecarRestarts;
                lastRestart = sidecarLastRestart;
                boolean hasRunning = false;
                JsonNode statuses = status.path("containerStatuses");
                for (int i = statuses.size() - 1; i >= 0; i--) {
                    JsonNode c = statuses.get(i);
                    restarts += c.path("restartCount").asInt(0);
                    lastRestart = later(lastRestart, finishedAt(c));
                    JsonNode state = c.path("state");
                    String waiting = Nodes.text(state.path("waiting"), "reason");
                    JsonNode terminated = state.path("terminated");
                    if (!waiting.isEmpty()) {
                        reason = waiting;
                    } else if (!terminated.isMissingNode() && !Nodes.text(terminated, "reason").isEmpty()) {
                        reason = Nodes.text(terminated, "reason");
                    } else if (!terminated.isMissingNode()) {
                        reason = terminated.path("signal").asInt(0) != 0 ? "Signal:" + terminated.path("signal").asInt()
                                : "ExitCode:" + terminated.path("exitCode").asInt();
                    } else if (c.path("ready").asBoolean(false) && state.has("running")) {
                        hasRunning = true;
                        ready++;
                    }
                }
                if (reason.equals("Completed") && hasRunning) {
                    reason = conditionTrue(status, "Ready") ? "Running" : "NotReady";
                }
            }
            boolean deleting = !Nodes.isUnset(pod.path("metadata"), "deletionTimestamp");
            if (deleting && Nodes.text(status, "reason").equals("NodeLost")) {
                reason = "Unknown";
            } else if (deleting && !phase.equals("Succeeded") && !phase.equals("Failed")) {
                reason = "Terminating";
            }
        }

        String ready() {
            return ready + "/" + total;
        }

        String restarts(Instant now) {
            if (restarts == 0 || lastRestart == null) {
                return Integer.toString(restarts);
            }
            return restarts + " (" + HumanDuration.format(Duration.between(lastRestart, now)) + " ago)";
        }

        private static boolean conditionTrue(JsonNode status, String type) {
            for (JsonNode c : status.path("conditions")) {
                if (Nodes.text(c, "type").equals(type)) {
                    return Nodes.text(c, "status").equals("True");
                }
            }
            return false;
        }

        private static Instant finishedAt(JsonNode containerStatus) {
            String t = Nodes.text(containerStatus.path("lastState").path("terminated"), "finishedAt");
            if (t.isEmpty()) {
                return null;
            }
            try {
                return OffsetDateTime.parse(t).toInstant();
            } catch (DateTimeParseException e) {
                return null;
            }
        }

        private static Instant later(Instant a, Instant b) {
            return a == null ? b : b == null || a.isAfter(b) ? a : b;
        }
    }
}
