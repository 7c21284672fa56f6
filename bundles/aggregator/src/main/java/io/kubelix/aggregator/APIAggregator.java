package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.server.APIRequest;
import io.kubelix.api.server.APIResponse;
import io.kubelix.api.server.DelegationTarget;
import io.kubelix.api.server.DiscoverySource;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

import java.io.IOException;
import java.util.List;

/**
 * kube-aggregator's APIAggregator, the first link of the server chain: a request for a group and
 * version that a remote APIService serves is proxied to its extension API server
 * ({@link APIServiceProxy}); {@code /apis/<group>} of a remote group is answered from what its
 * servers publish; everything else goes on to the core API, whose discovery lists the remote
 * groups this link gives it ({@link RemoteDiscovery}). APIServices and services are read through
 * the server's informers, so a new or changed APIService routes the next request. The proxy's
 * client certificate is {@code kubelix.proxy-client-cert-file} and {@code kubelix.proxy-client-key-file}
 * ({@code --proxy-client-cert-file}, {@code --proxy-client-key-file}); {@code kubelix.enable-aggregator-routing}
 * ({@code --enable-aggregator-routing}) sends requests to the services' endpoints ({@link ServiceResolver}).
 */
@Component(service = {DelegationTarget.class, DiscoverySource.class},
        property = Constants.SERVICE_RANKING + ":Integer=" + APIAggregator.RANKING)
public final class APIAggregator implements DelegationTarget, DiscoverySource {
    /** Ahead of the core API, as kube's aggregator wraps kube-apiserver. */
    static final int RANKING = DelegationTarget.CORE_API_RANKING + 100;
    static final GroupVersionResource API_SERVICES = new GroupVersionResource(APIServices.GROUP, APIServices.VERSION,
            "apiservices");
    static final GroupVersionResource SERVICES = new GroupVersionResource("", "v1", "services");

    private final ObjectMapper json = new ObjectMapper();
    private final SharedIndexInformer apiServices;
    private final ProxyTransports transports;
    private final APIServiceProxy proxy;
    private final RemoteDiscovery discovery;

    @Activate
    public APIAggregator(BundleContext context, @Reference SharedInformerFactory informers) {
        ProxyTransports transports = new ProxyTransports(new ProxyClientCertificate(
                context.getProperty("kubelix.proxy-client-cert-file"), context.getProperty("kubelix.proxy-client-key-file")));
        this.apiServices = informers.forResource(API_SERVICES);
        ServiceResolver services = ServiceResolver.forRouting(context.getProperty("kubelix.enable-aggregator-routing"),
                informers);
        this.transports = transports;
        this.proxy = new APIServiceProxy(apiServices, services, transports);
        this.discovery = new RemoteDiscovery(json, informers, apiServices, services, transports);
    }

    @Deactivate
    void deactivate() {
        discovery.stop();
        transports.clear();
    }

    @Override
    public String name() {
        return "kube-aggregator";
    }

    @Override
    public List<Group> discoveryGroups() {
        return discovery.groups();
    }

    /** Every APIService's, local ones included, so that discovery sorts all groups as kube's aggregator does. */
    @Override
    public List<Priority> discoveryPriorities() {
        return apiServices.lister().list().stream().map(APIServices::priority).toList();
    }

    @Override
    public boolean handle(APIRequest request, APIResponse response) {
        ObjectNode apiService = proxy.remoteAPIServiceFor(request.path());
        if (apiService != null) {
            proxy.proxy(apiService, request, response);
            return true;
        }
        return serveGroup(request.path(), request, response);
    }

    /** {@code /apis/<group>} of a remote group: its APIGroup, versions as discovery orders them. */
    private boolean serveGroup(String path, APIRequest request, APIResponse response) {
        String[] parts = path.replaceAll("^/+|/+$", "").split("/");
        if (parts.length != 2 || !parts[0].equals("apis")
                || !(request.method().equals("GET") || request.method().equals("HEAD"))) {
            return false;
        }
        for (Group g : discovery.groups()) {
            List<Version> fresh = g.versions().stream().filter(v -> !v.stale()).toList();
            if (!g.name().equals(parts[1]) || fresh.isEmpty()) {
                continue;
            }
            ObjectNode doc = json.createObjectNode();
            doc.put("kind", "APIGroup");
            doc.put("apiVersion", "v1");
            doc.put("name", g.name());
            ArrayNode versions = doc.putArray("versions");
            for (Version v : fresh) {
                versions.addObject().put("groupVersion", g.name() + "/" + v.version()).put("version", v.version());
            }
            doc.set("preferredVersion", versions.get(0).deepCopy());
            response.setStatus(200);
            response.setHeader("Content-Type", "application/json");
            try {
                response.body().write(json.writeValueAsBytes(doc));
                response.complete();
            } catch (IOException e) {
                response.fail(e);
            }
            return true;
        }
        return false;
    }
}
