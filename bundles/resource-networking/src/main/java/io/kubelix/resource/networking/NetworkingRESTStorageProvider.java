package io.kubelix.resource.networking;

import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.ResourceSchema;
import org.osgi.service.component.annotations.Component;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The networking.k8s.io group's RESTStorageProvider: {@code /apis/networking.k8s.io/v1}
 * ingresses (short name {@code ing}, with {@code status}), cluster-scoped ingressclasses, and
 * networkpolicies (short name {@code netpol}). No ingress controller runs: an ingress's address is
 * what its {@code status} subresource was last given.
 */
@Component(service = RESTStorageProvider.class)
public final class NetworkingRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "networking.k8s.io";
    static final String VERSION = "v1";
    static final GroupResource INGRESSES = GroupResource.of(GROUP, "ingresses");
    static final GroupResource INGRESSCLASSES = GroupResource.of(GROUP, "ingressclasses");
    static final GroupResource NETWORKPOLICIES = GroupResource.of(GROUP, "networkpolicies");

    private static final Logger LOG = LoggerFactory.getLogger(NetworkingRESTStorageProvider.class);

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, RESTStorage> v1 = new LinkedHashMap<>();
        StandardStorage ingresses = getter.newStore(ingressSpec());
        v1.put("ingresses", ingresses);
        v1.put("ingresses/status", getter.newStatusStore(ingresses, new NetworkingStrategies.IngressStatus()));
        v1.put("ingressclasses", getter.newStore(ingressClassSpec()));
        v1.put("networkpolicies", getter.newStore(networkPolicySpec()));
        LOG.info("built networking.k8s.io/v1 storage: {}", v1.keySet());
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, v1));
    }

    static StoreSpec ingressSpec() {
        return StoreSpec.builder(INGRESSES, "Ingress")
                .namespaced(true)
                .schema(schema("Ingress"))
                .shortNames("ing")
                .strategy(new NetworkingStrategies.Ingress())
                .generation(true)
                .tableColumns(NetworkingPrinters.ingressColumns().toArray(TableColumn[]::new))
                .build();
    }

    static StoreSpec ingressClassSpec() {
        return StoreSpec.builder(INGRESSCLASSES, "IngressClass")
                .namespaced(false)
                .schema(schema("IngressClass"))
                .strategy(new NetworkingStrategies.IngressClass())
                .generation(true)
                .tableColumns(NetworkingPrinters.ingressClassColumns().toArray(TableColumn[]::new))
                .build();
    }

    static StoreSpec networkPolicySpec() {
        return StoreSpec.builder(NETWORKPOLICIES, "NetworkPolicy")
                .namespaced(true)
                .schema(schema("NetworkPolicy"))
                .shortNames("netpol")
                .strategy(new NetworkingStrategies.NetworkPolicy())
                .generation(true)
                .tableColumns(NetworkingPrinters.networkPolicyColumns().toArray(TableColumn[]::new))
                .build();
    }

    /** The OpenAPI schema of a networking/v1 kind, generated at build time (the {@code openapi-schemas} execution). */
    static ResourceSchema schema(String kind) {
        return ResourceSchema.load(NetworkingRESTStorageProvider.class, "/openapi/schemas.json",
                "io.k8s.api.networking.v1." + kind);
    }
}
