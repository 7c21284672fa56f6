package io.kubelix.resource.flowcontrol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * kube's flowcontrol/v1 defaulting (pkg/apis/flowcontrol/v1/defaults.go), applied to every write as kube
 * defaults every decoded body. In v1 an explicit {@code nominalConcurrencyShares: 0} of a limited level is
 * kept; only a missing one becomes 30.
 */
final class FlowcontrolDefaults {
    static final int DEFAULT_MATCHING_PRECEDENCE = 1000;
    static final int DEFAULT_NOMINAL_CONCURRENCY_SHARES = 30;
    static final int DEFAULT_QUEUES = 64;
    static final int DEFAULT_HAND_SIZE = 8;
    static final int DEFAULT_QUEUE_LENGTH_LIMIT = 50;

    private FlowcontrolDefaults() {
    }

    /** SetDefaults_FlowSchemaSpec: a missing or zero matchingPrecedence becomes 1000. */
    static void flowSchema(ObjectNode fs) {
        if (fs.get("spec") instanceof ObjectNode spec && spec.path("matchingPrecedence").asInt(0) == 0) {
            spec.put("matchingPrecedence", DEFAULT_MATCHING_PRECEDENCE);
        }
    }

    /**
     * SetObjectDefaults_PriorityLevelConfiguration: a limited level's nominalConcurrencyShares (30) and
     * lendablePercent (0), its queuing's queues, handSize and queueLengthLimit when zero; an exempt level's
     * nominalConcurrencyShares and lendablePercent (0).
     */
    static void priorityLevel(ObjectNode pl) {
        JsonNode spec = pl.path("spec");
        if (spec.get("limited") instanceof ObjectNode limited) {
            putIfAbsent(limited, "nominalConcurrencyShares", DEFAULT_NOMINAL_CONCURRENCY_SHARES);
            putIfAbsent(limited, "lendablePercent", 0);
            if (limited.path("limitResponse").get("queuing") instanceof ObjectNode queuing) {
                putIfZero(queuing, "handSize", DEFAULT_HAND_SIZE);
                putIfZero(queuing, "queues", DEFAULT_QUEUES);
                putIfZero(queuing, "queueLengthLimit", DEFAULT_QUEUE_LENGTH_LIMIT);
            }
        }
        if (spec.get("exempt") instanceof ObjectNode exempt) {
            putIfAbsent(exempt, "nominalConcurrencyShares", 0);
            putIfAbsent(exempt, "lendablePercent", 0);
        }
    }

    /** A pointer field of kube's type: only nil is defaulted. */
    private static void putIfAbsent(ObjectNode o, String field, int value) {
        if (o.path(field).isMissingNode() || o.path(field).isNull()) {
            o.put(field, value);
        }
    }

    /** A plain int32 field of kube's type: its zero value is defaulted. */
    private static void putIfZero(ObjectNode o, String field, int value) {
        if (o.path(field).asInt(0) == 0) {
            o.put(field, value);
        }
    }
}
