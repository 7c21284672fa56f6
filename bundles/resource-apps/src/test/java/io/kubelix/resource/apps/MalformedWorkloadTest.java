package io.kubelix.resource.apps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static io.kubelix.resource.apps.Fixtures.CTX;
import static io.kubelix.resource.apps.Fixtures.workload;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Every field of a workload replaced by a value of each wrong JSON type: the strategy answers with
 * field errors or a 400, never an exception that would reach the client as a 500.
 */
class MalformedWorkloadTest {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final List<Supplier<JsonNode>> WRONG = List.of(
            () -> F.textNode("x"), () -> F.numberNode(-3), () -> F.booleanNode(true), F::nullNode,
            F::objectNode, () -> F.arrayNode().add(1), () -> F.arrayNode().add(F.objectNode()));

    /** A deployment using the pod template fields the defaults and validation look into. */
    private static final ObjectNode RICH = Fixtures.json("{'metadata':{'name':'w','annotations':{'a':'b'}},'spec':{"
            + "'selector':{'matchLabels':{'app':'w'},'matchExpressions':[{'key':'t','operator':'In','values':['a']}]},"
            + "'strategy':{'type':'RollingUpdate','rollingUpdate':{'maxUnavailable':1,'maxSurge':'10%'}},"
            + "'template':{'metadata':{'labels':{'app':'w','t':'a'},'annotations':{'x':'y'}},'spec':{"
            + "'nodeSelector':{'disk':'ssd'},'volumes':[{'name':'c','configMap':{'name':'c'}},{'name':'h','hostPath':"
            + "{'path':'/h'}}],'initContainers':[{'name':'i','image':'busybox'}],'containers':[{'name':'c','image':'nginx',"
            + "'ports':[{'name':'http','containerPort':80}],'env':[{'name':'N','valueFrom':{'fieldRef':{'fieldPath':'x'}}}],"
            + "'volumeMounts':[{'name':'c','mountPath':'/c'}],'readinessProbe':{'httpGet':{'port':80}}}]}}}}");

    @Test
    void noFieldOfAnyTypeBreaksAStrategy() {
        List<Supplier<WorkloadStrategy>> strategies = List.of(WorkloadStrategy::deployment, WorkloadStrategy::replicaSet,
                WorkloadStrategy::statefulSet, WorkloadStrategy::daemonSet, WorkloadStrategy::deployment);
        List<String> kinds = List.of("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Deployment");
        int tried = 0;
        for (int k = 0; k < kinds.size(); k++) {
            ObjectNode valid = k == kinds.size() - 1 ? RICH : workload(kinds.get(k), "w");
            for (List<String> path : paths(valid, new ArrayList<>())) {
                for (Supplier<JsonNode> wrong : WRONG) {
                    ObjectNode obj = valid.deepCopy();
                    set(obj, path, wrong.get());
                    WorkloadStrategy strategy = strategies.get(k).get();
                    try {
                        strategy.prepareForCreate(CTX, obj);
                        strategy.validate(CTX, obj);
                        ObjectNode old = valid.deepCopy();
                        strategy.prepareForCreate(CTX, old);
                        ObjectNode update = valid.deepCopy();
                        set(update, path, wrong.get());
                        strategy.prepareForUpdate(CTX, update, old);
                        strategy.validateUpdate(CTX, update, old);
                    } catch (StatusException e) {
                        assertEquals(400, e.code(), path + " = " + wrong.get() + ": " + e.getMessage());
                    } catch (RuntimeException e) {
                        fail(kinds.get(k) + " " + path + " = " + wrong.get() + ": " + e, e);
                    }
                    tried++;
                }
            }
        }
        assertEquals(true, tried > 1000, "tried " + tried);
        assertEquals(List.of(), Fixtures.create(WorkloadStrategy.deployment(), RICH.deepCopy()), "the unbroken object is valid");
    }

    /** Every field path of {@code node} (object fields and array indexes), parents before children. */
    private static List<List<String>> paths(JsonNode node, List<String> prefix) {
        List<List<String>> out = new ArrayList<>();
        if (node.isObject()) {
            node.fieldNames().forEachRemaining(f -> {
                List<String> p = new ArrayList<>(prefix);
                p.add(f);
                out.add(p);
                out.addAll(paths(node.get(f), p));
            });
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                List<String> p = new ArrayList<>(prefix);
                p.add("#" + i);
                out.add(p);
                out.addAll(paths(node.get(i), p));
            }
        }
        return out;
    }

    private static void set(ObjectNode root, List<String> path, JsonNode value) {
        JsonNode parent = root;
        for (String step : path.subList(0, path.size() - 1)) {
            parent = step.startsWith("#") ? parent.get(Integer.parseInt(step.substring(1))) : parent.get(step);
        }
        String last = path.get(path.size() - 1);
        if (last.startsWith("#")) {
            ((ArrayNode) parent).set(Integer.parseInt(last.substring(1)), value);
        } else {
            ((ObjectNode) parent).set(last, value);
        }
    }
}
