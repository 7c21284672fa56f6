package io.kubelix.runtime.flowcontrol;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * kube-apiserver's bootstrap flow-control configuration (k8s.io/apiserver's
 * {@code apis/flowcontrol/bootstrap/default.go}, as of kube 1.32), as {@code flowcontrol.apiserver.k8s.io/v1}
 * objects. The mandatory objects are kept at this spec; the suggested ones are created when missing and
 * updated while annotated {@code apf.kubernetes.io/autoupdate-spec: "true"}. The same objects serve
 * as the configuration in memory while the flowcontrol resources are not served.
 */
public final class BootstrapConfiguration {
    public static final String API_VERSION = "flowcontrol.apiserver.k8s.io/v1";
    public static final String AUTO_UPDATE_ANNOTATION = "apf.kubernetes.io/autoupdate-spec";
    public static final String EXEMPT = "exempt";
    public static final String CATCH_ALL = "catch-all";

    private static final String NODES_GROUP = "system:nodes";
    private static final String SERVICE_ACCOUNTS_GROUP = "system:serviceaccounts";
    private static final String KUBE_CONTROLLER_MANAGER = "system:kube-controller-manager";
    private static final String KUBE_SCHEDULER = "system:kube-scheduler";
    private static final String BY_USER = "ByUser";
    private static final String BY_NAMESPACE = "ByNamespace";
    private static final String ALL = "*";

    private BootstrapConfiguration() {
    }

    /** The PriorityLevelConfigurations every server has: {@code exempt} and {@code catch-all}. */
    public static List<ObjectNode> mandatoryPriorityLevels() {
        ObjectNode exempt = priorityLevel(EXEMPT);
        ObjectNode spec = exempt.putObject("spec");
        spec.put("type", "Exempt");
        spec.putObject("exempt").put("nominalConcurrencyShares", 0).put("lendablePercent", 0);
        ObjectNode catchAll = priorityLevel(CATCH_ALL);
        ObjectNode limited = catchAll.putObject("spec").put("type", "Limited").putObject("limited");
        limited.put("nominalConcurrencyShares", 5).put("lendablePercent", 0);
        limited.putObject("limitResponse").put("type", "Reject");
        return List.of(exempt, catchAll);
    }

    /** The FlowSchemas every server has: {@code exempt} and {@code catch-all}. */
    public static List<ObjectNode> mandatoryFlowSchemas() {
        return List.of(
                flowSchema(EXEMPT, EXEMPT, 1, null,
                        rules(groups("system:masters"), allResources(), allNonResources())),
                flowSchema(CATCH_ALL, CATCH_ALL, 10000, BY_USER,
                        rules(groups("system:unauthenticated", "system:authenticated"), allResources(),
                                allNonResources())));
    }

    /** The suggested PriorityLevelConfigurations, in kube's order. */
    public static List<ObjectNode> suggestedPriorityLevels() {
        return List.of(
                limitedQueuing("system", 30, 33, 64, 6),
                limitedQueuing("node-high", 40, 25, 64, 6),
                limitedQueuing("leader-election", 10, 0, 16, 4),
                limitedQueuing("workload-high", 40, 50, 128, 6),
                limitedQueuing("workload-low", 100, 90, 128, 6),
                limitedQueuing("global-default", 20, 50, 128, 6));
    }

    /** The suggested FlowSchemas, in kube's order. */
    public static List<ObjectNode> suggestedFlowSchemas() {
        List<String> getCreateUpdate = List.of("get", "create", "update");
        ArrayNode kubeSystemAll = serviceAccounts("kube-system", "*");
        return List.of(
                flowSchema("system-nodes", "system", 500, BY_USER,
                        rules(groups(NODES_GROUP), allResources(), allNonResources())),
                flowSchema("system-node-high", "node-high", 400, BY_USER,
                        rules(groups(NODES_GROUP), array(
                                resourceRule(List.of(ALL), List.of(""), List.of("nodes", "nodes/status"), true, ALL),
                                resourceRule(List.of(ALL), List.of("coordination.k8s.io"), List.of("leases"), false,
                                        ALL)),
                                null)),
                // Not mandatory in kube: an operator may delete it and have the probes queue like the rest.
                flowSchema("probes", EXEMPT, 2, null,
                        rules(groups("system:unauthenticated", "system:authenticated"), null,
                                nonResourceRule(List.of("get"), List.of("/healthz", "/readyz", "/livez")))),
                flowSchema("system-leader-election", "leader-election", 100, BY_USER,
                        rules(concat(users(KUBE_CONTROLLER_MANAGER, KUBE_SCHEDULER), kubeSystemAll),
                                array(resourceRule(getCreateUpdate, List.of("coordination.k8s.io"), List.of("leases"),
                                        false, ALL)), null)),
                // kube 1.32 still matches the endpoints and configmaps locks of older leader elections here.
                flowSchema("workload-leader-election", "leader-election", 200, BY_USER,
                        rules(kubeSystemAll.deepCopy(), array(
                                resourceRule(getCreateUpdate, List.of(""), List.of("endpoints", "configmaps"), false,
                                        ALL),
                                resourceRule(getCreateUpdate, List.of("coordination.k8s.io"), List.of("leases"), false,
                                        ALL)), null)),
                flowSchema("endpoint-controller", "workload-high", 150, BY_USER,
                        rules(concat(users(KUBE_CONTROLLER_MANAGER),
                                        serviceAccounts("kube-system", "endpoint-controller",
                                                "endpointslicemirroring-controller")),
                                array(resourceRule(getCreateUpdate, List.of(""), List.of("endpoints"), false, ALL)),
                                null)),
                flowSchema("kube-controller-manager", "workload-high", 800, BY_NAMESPACE,
                        rules(users(KUBE_CONTROLLER_MANAGER), allResources(), allNonResources())),
                flowSchema("kube-scheduler", "workload-high", 800, BY_NAMESPACE,
                        rules(users(KUBE_SCHEDULER), allResources(), allNonResources())),
                flowSchema("kube-system-service-accounts", "workload-high", 900, BY_NAMESPACE,
                        rules(kubeSystemAll.deepCopy(), allResources(), allNonResources())),
                flowSchema("service-accounts", "workload-low", 9000, BY_USER,
                        rules(groups(SERVICE_ACCOUNTS_GROUP), allResources(), allNonResources())),
                flowSchema("global-default", "global-default", 9900, BY_USER,
                        rules(groups("system:unauthenticated", "system:authenticated"), allResources(),
                                allNonResources())));
    }

    /** Every bootstrap FlowSchema, mandatory ones first. */
    public static List<ObjectNode> flowSchemas() {
        return concatList(mandatoryFlowSchemas(), suggestedFlowSchemas());
    }

    /** Every bootstrap PriorityLevelConfiguration, mandatory ones first. */
    public static List<ObjectNode> priorityLevels() {
        return concatList(mandatoryPriorityLevels(), suggestedPriorityLevels());
    }

    private static List<ObjectNode> concatList(List<ObjectNode> a, List<ObjectNode> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }

    private static ObjectNode object(String kind, String name) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("apiVersion", API_VERSION).put("kind", kind);
        o.putObject("metadata").put("name", name).putObject("annotations").put(AUTO_UPDATE_ANNOTATION, "true");
        return o;
    }

    private static ObjectNode priorityLevel(String name) {
        return object("PriorityLevelConfiguration", name);
    }

    private static ObjectNode limitedQueuing(String name, int shares, int lendablePercent, int queues, int handSize) {
        ObjectNode pl = priorityLevel(name);
        ObjectNode limited = pl.putObject("spec").put("type", "Limited").putObject("limited");
        limited.put("nominalConcurrencyShares", shares).put("lendablePercent", lendablePercent);
        ObjectNode response = limited.putObject("limitResponse").put("type", "Queue");
        response.putObject("queuing").put("queues", queues).put("handSize", handSize).put("queueLengthLimit", 50);
        return pl;
    }

    private static ObjectNode flowSchema(String name, String level, int precedence, String distinguisher,
                                         ObjectNode rule) {
        ObjectNode fs = object("FlowSchema", name);
        ObjectNode spec = fs.putObject("spec");
        spec.putObject("priorityLevelConfiguration").put("name", level);
        spec.put("matchingPrecedence", precedence);
        if (distinguisher != null) {
            spec.putObject("distinguisherMethod").put("type", distinguisher);
        }
        spec.putArray("rules").add(rule);
        return fs;
    }

    private static ObjectNode rules(ArrayNode subjects, ArrayNode resourceRules, ArrayNode nonResourceRules) {
        ObjectNode rule = JsonNodeFactory.instance.objectNode();
        rule.set("subjects", subjects);
        if (resourceRules != null) {
            rule.set("resourceRules", resourceRules);
        }
        if (nonResourceRules != null) {
            rule.set("nonResourceRules", nonResourceRules);
        }
        return rule;
    }

    private static ArrayNode allResources() {
        return array(resourceRule(List.of(ALL), List.of(ALL), List.of(ALL), true, ALL));
    }

    private static ArrayNode allNonResources() {
        return nonResourceRule(List.of(ALL), List.of(ALL));
    }

    /** A rule for the namespace ({@code *}: every one), and for cluster-scoped objects when {@code clusterScope}. */
    private static ObjectNode resourceRule(List<String> verbs, List<String> groups, List<String> resources,
                                           boolean clusterScope, String namespace) {
        ObjectNode r = JsonNodeFactory.instance.objectNode();
        strings(r.putArray("verbs"), verbs);
        strings(r.putArray("apiGroups"), groups);
        strings(r.putArray("resources"), resources);
        if (clusterScope) {
            r.put("clusterScope", true);
        }
        r.putArray("namespaces").add(namespace);
        return r;
    }

    private static ArrayNode nonResourceRule(List<String> verbs, List<String> urls) {
        ObjectNode r = JsonNodeFactory.instance.objectNode();
        strings(r.putArray("verbs"), verbs);
        strings(r.putArray("nonResourceURLs"), urls);
        return array(r);
    }

    private static ArrayNode groups(String... names) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        for (String n : names) {
            a.addObject().put("kind", "Group").putObject("group").put("name", n);
        }
        return a;
    }

    private static ArrayNode users(String... names) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        for (String n : names) {
            a.addObject().put("kind", "User").putObject("user").put("name", n);
        }
        return a;
    }

    private static ArrayNode serviceAccounts(String namespace, String... names) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        for (String n : names) {
            a.addObject().put("kind", "ServiceAccount").putObject("serviceAccount")
                    .put("name", n).put("namespace", namespace);
        }
        return a;
    }

    private static ArrayNode concat(ArrayNode a, ArrayNode b) {
        a.addAll(b);
        return a;
    }

    private static ArrayNode array(ObjectNode... items) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        for (ObjectNode i : items) {
            a.add(i);
        }
        return a;
    }

    private static void strings(ArrayNode into, List<String> values) {
        values.forEach(into::add);
    }
}
