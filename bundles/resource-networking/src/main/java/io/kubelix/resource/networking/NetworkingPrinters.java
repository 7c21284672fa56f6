package io.kubelix.resource.networking;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.object.LabelSelectors;
import io.kubelix.api.registry.TableColumn;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The server-side Table columns of the networking resources, as kube's printers
 * (pkg/printers/internalversion/printers.go) define them.
 */
final class NetworkingPrinters {
    /** kube's loadBalancerWidth: a longer ADDRESS cell is cut to this width with "...". */
    static final int LOAD_BALANCER_WIDTH = 16;
    private static final int MAX_HOSTS = 3;

    private NetworkingPrinters() {
    }

    /** NAME, CLASS, HOSTS, ADDRESS, PORTS, AGE. */
    static List<TableColumn> ingressColumns() {
        return List.of(TableColumn.nameColumn(),
                column("Class", "string", "The name of the IngressClass resource that should be used for this Ingress.",
                        o -> o.path("spec").hasNonNull("ingressClassName") ? o.path("spec").get("ingressClassName").asText()
                                : "<none>"),
                column("Hosts", "string", "Hosts that incoming requests are matched against before the ingress rule",
                        NetworkingPrinters::hosts),
                column("Address", "string", "Address is a list containing ingress points for the load-balancer",
                        NetworkingPrinters::address),
                column("Ports", "string", "Ports of TLS configurations that open",
                        o -> o.path("spec").path("tls").isEmpty() ? "80" : "80, 443"),
                TableColumn.ageColumn());
    }

    /** NAME, CONTROLLER, PARAMETERS, AGE. */
    static List<TableColumn> ingressClassColumns() {
        return List.of(TableColumn.nameColumn(),
                column("Controller", "string", "Controller that is responsible for handling this class",
                        o -> o.path("spec").path("controller").asText("")),
                column("Parameters", "string", "A reference to a resource with additional parameters",
                        NetworkingPrinters::parameters),
                TableColumn.ageColumn());
    }

    /** NAME, POD-SELECTOR, AGE. */
    static List<TableColumn> networkPolicyColumns() {
        return List.of(TableColumn.nameColumn(),
                column("Pod-Selector", "string", "podSelector selects the pods to which this NetworkPolicy object "
                        + "applies. The array of rules is applied to any pods selected by this field. An empty selector "
                        + "matches all pods in this namespace.", NetworkingPrinters::podSelector),
                TableColumn.ageColumn());
    }

    private static TableColumn column(String name, String type, String description, Function<ObjectNode, Object> cell) {
        return new TableColumn(name, type, "", description, 0, cell);
    }

    /** formatHosts: the first three rules' hosts, {@code *} when none has one. */
    static String hosts(ObjectNode ingress) {
        JsonNode rules = ingress.path("spec").path("rules");
        List<String> list = new ArrayList<>();
        boolean more = false;
        for (JsonNode rule : rules) {
            if (list.size() == MAX_HOSTS) {
                more = true;
            }
            String host = rule.path("host").asText("");
            if (!more && !host.isEmpty()) {
                list.add(host);
            }
        }
        if (list.isEmpty()) {
            return "*";
        }
        String ret = String.join(",", list);
        return more ? ret + " + " + (rules.size() - MAX_HOSTS) + " more..." : ret;
    }

    /** ingressLoadBalancerStatusStringer: the sorted IPs (else hostnames) of the load balancer, cut as kube cuts them. */
    static String address(ObjectNode ingress) {
        TreeSet<String> result = new TreeSet<>();
        for (JsonNode lb : ingress.path("status").path("loadBalancer").path("ingress")) {
            String ip = lb.path("ip").asText("");
            String hostname = lb.path("hostname").asText("");
            if (!ip.isEmpty()) {
                result.add(ip);
            } else if (!hostname.isEmpty()) {
                result.add(hostname);
            }
        }
        String r = String.join(",", result);
        return r.length() > LOAD_BALANCER_WIDTH ? r.substring(0, LOAD_BALANCER_WIDTH - 3) + "..." : r;
    }

    /** {@code Kind.apiGroup/name} of the parameters reference, or {@code <none>}. */
    static String parameters(ObjectNode ingressClass) {
        JsonNode p = ingressClass.path("spec").get("parameters");
        if (p == null || p.isNull()) {
            return "<none>";
        }
        String s = p.path("kind").asText("");
        if (p.hasNonNull("apiGroup")) {
            s += "." + p.get("apiGroup").asText();
        }
        return s + "/" + p.path("name").asText("");
    }

    /** metav1.FormatLabelSelector of spec.podSelector: {@code <none>} when it selects every pod. */
    static String podSelector(ObjectNode policy) {
        try {
            String s = LabelSelectors.format(policy.path("spec").path("podSelector"));
            return s.isEmpty() ? "<none>" : s;
        } catch (IllegalArgumentException e) {
            return "<error>";
        }
    }
}
