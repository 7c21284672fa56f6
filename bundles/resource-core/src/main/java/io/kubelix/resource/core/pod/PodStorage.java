package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StatusStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.resource.core.common.CoreSchemas;
import io.kubelix.resource.core.common.Nodes;

import java.util.Map;

/**
 * {@code pods} with {@code pods/status}, {@code pods/resize}, {@code pods/binding} and {@code pods/eviction}, as kube's
 * pod storage (pkg/registry/core/pod/storage) serves them: short name {@code po}, category
 * {@code all}, the field selectors of kube's PodToSelectableFields with {@code spec.nodeName}
 * indexed by the watch cache, as kubelets watch their node's pods.
 */
public final class PodStorage {
    static final GroupResource PODS = GroupResource.of("", "pods");
    static final String NODE_NAME = "spec.nodeName";

    private PodStorage() {
    }

    public static void install(RESTOptionsGetter getter, Map<String, RESTStorage> v1) {
        StandardStorage pods = getter.newStore(spec());
        v1.put("pods", pods);
        StatusStorage status = getter.newStatusStore(pods, new PodStatusStrategy());
        v1.put("pods/status", status);
        v1.put("pods/resize", getter.newStatusStore(pods, new PodResizeStrategy()));
        v1.put("pods/binding", new PodBindingREST(getter.newStatusStore(pods, PodBindingREST.updateStrategy())));
        v1.put("pods/eviction", new PodEvictionREST(pods, status));
    }

    public static StoreSpec spec() {
        PodStrategy strategy = new PodStrategy();
        return StoreSpec.builder(PODS, "Pod")
                .schema(CoreSchemas.v1("Pod"))
                .namespaced(true)
                .shortNames("po")
                .categories("all")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(strategy)
                .tableColumns(PodPrinters.podColumns().toArray(TableColumn[]::new))
                .selectableField(NODE_NAME, o -> Nodes.text(o.path("spec"), "nodeName"))
                .selectableField("spec.restartPolicy", o -> Nodes.text(o.path("spec"), "restartPolicy"))
                .selectableField("spec.schedulerName", o -> Nodes.text(o.path("spec"), "schedulerName"))
                .selectableField("spec.serviceAccountName", o -> Nodes.text(o.path("spec"), "serviceAccountName"))
                .selectableField("spec.hostNetwork", o -> Boolean.toString(Nodes.isTrue(o.path("spec"), "hostNetwork")))
                .selectableField("status.phase", o -> Nodes.text(o.path("status"), "phase"))
                .selectableField("status.podIP", PodStorage::podIP)
                .selectableField("status.nominatedNodeName", o -> Nodes.text(o.path("status"), "nominatedNodeName"))
                .indexedField(NODE_NAME)
                .build();
    }

    /** The pod's primary IP: the first of {@code status.podIPs}, or {@code status.podIP}. */
    private static String podIP(com.fasterxml.jackson.databind.node.ObjectNode pod) {
        JsonNode ips = pod.path("status").path("podIPs");
        return ips.size() > 0 ? Nodes.text(ips.get(0), "ip") : Nodes.text(pod.path("status"), "podIP");
    }
}
