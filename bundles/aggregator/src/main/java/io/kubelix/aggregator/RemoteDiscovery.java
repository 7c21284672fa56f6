package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.informer.Workers;
import io.kubelix.api.schema.VersionPriority;
import io.kubelix.api.server.DiscoverySource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The discovery documents of the extension API servers (kube-aggregator's discovery manager and
 * OpenAPI aggregation): each available remote APIService's {@code /apis/<group>/<version>}, and the
 * group version's document of the server's {@code /openapi/v3}, are fetched when the APIService
 * changes and every 30 seconds, as {@code system:kube-aggregator}. The server's discovery lists
 * them ({@link DiscoverySource}); a group version whose APIService is not available, or whose
 * server did not answer, is stale: {@code /apis} leaves it out and the aggregated discovery keeps
 * its last resources marked {@code Stale}. Groups are ordered as kube orders APIServices: by
 * {@code groupPriorityMinimum}, highest first, then by name; versions by {@code versionPriority},
 * then as kube sorts versions.
 */
final class RemoteDiscovery {
    static final Duration RESYNC = Duration.ofSeconds(30);
    static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final Logger LOG = LoggerFactory.getLogger(RemoteDiscovery.class);

    /** What is known of one remote group version. */
    record Entry(String group, String version, int groupPriority, int versionPriority, ObjectNode resourceList,
                 ObjectNode openAPIV3, boolean stale) {
    }

    private final ObjectMapper json;
    private final SharedIndexInformer apiServices;
    private final ServiceResolver services;
    private final ProxyTransports transports;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final RateLimitingQueue<String> queue;
    private final ResourceEventHandlerRegistration registration;
    private final Workers workers;

    RemoteDiscovery(ObjectMapper json, SharedInformerFactory informers, SharedIndexInformer apiServices,
                    ServiceResolver services, ProxyTransports transports) {
        this.json = json;
        this.apiServices = apiServices;
        this.services = services;
        this.transports = transports;
        this.queue = informers.newRateLimitingQueue("DiscoveryAggregationController");
        this.registration = apiServices.addEventHandler(new EnqueueHandler(queue, o -> List.of(name(o))), RESYNC);
        this.workers = informers.runWorkers("DiscoveryAggregationController", queue, 1, this::sync);
    }

    void stop() {
        registration.close();
        workers.stop();
    }

    private static String name(JsonNode apiService) {
        return apiService.path("metadata").path("name").asText("");
    }

    void sync(String name) throws IOException, InterruptedException {
        ObjectNode apiService = apiServices.lister().get(name).orElse(null);
        JsonNode service = apiService == null ? null : APIServices.service(apiService);
        if (service == null) {
            entries.remove(name);
            return;
        }
        JsonNode spec = apiService.path("spec");
        Entry known = entries.get(name);
        Entry entry = new Entry(spec.path("group").asText(), spec.path("version").asText(),
                spec.path("groupPriorityMinimum").asInt(0), spec.path("versionPriority").asInt(0),
                known == null ? null : known.resourceList(), known == null ? null : known.openAPIV3(), true);
        JsonNode available = APIServices.availableCondition(apiService);
        if (available == null || !"True".equals(available.path("status").asText())) {
            entries.put(name, entry);
            return;
        }
        try {
            URI base = services.resolve(service.path("namespace").asText(), service.path("name").asText(),
                    service.path("port").asInt(APIServiceStrategy.DEFAULT_SERVICE_PORT));
            String groupVersion = "apis/" + spec.path("group").asText() + "/" + spec.path("version").asText();
            ObjectNode resources = get(apiService, URI.create(base + "/" + groupVersion));
            if (!"APIResourceList".equals(resources.path("kind").asText())) {
                throw new IOException("GET " + base + "/" + groupVersion + ": not an APIResourceList");
            }
            ObjectNode openAPI = sameDocument(known, openAPIV3(apiService, base, groupVersion));
            entries.put(name, new Entry(entry.group(), entry.version(), entry.groupPriority(), entry.versionPriority(),
                    known != null && resources.equals(known.resourceList()) ? known.resourceList() : resources,
                    openAPI, false));
        } catch (IOException | IllegalStateException | IllegalArgumentException e) {
            entries.put(name, entry);
            LOG.info("discovery of APIService {} failed, its group version is stale: {}", name, e.toString());
            throw e;
        }
    }

    /**
     * The group version's OpenAPI v3 document, as the server's {@code /openapi/v3} index names it, or
     * null when the server publishes none for it (or cannot be asked: discovery does not depend on it).
     */
    private ObjectNode openAPIV3(ObjectNode apiService, URI base, String groupVersion) {
        try {
            String url = get(apiService, URI.create(base + "/openapi/v3")).path("paths").path(groupVersion)
                    .path("serverRelativeURL").asText("");
            return url.startsWith("/") ? get(apiService, URI.create(base + url)) : null;
        } catch (IOException | RuntimeException e) {
            LOG.info("the OpenAPI v3 document of APIService {} could not be fetched: {}", name(apiService), e.toString());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The document known before when it has not changed, so the server's caches built on it stay valid. */
    private static ObjectNode sameDocument(Entry known, ObjectNode fetched) {
        return known != null && fetched != null && fetched.equals(known.openAPIV3()) ? known.openAPIV3() : fetched;
    }

    /** A JSON object from the APIService's server, asked as {@code system:kube-aggregator}. */
    private ObjectNode get(ObjectNode apiService, URI url) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(TIMEOUT).header("Accept", "application/json").GET();
        AuthProxyHeaders.set(request, AvailableConditionController.AGGREGATOR);
        HttpResponse<byte[]> r = transports.client(ProxyTransports.Key.of(apiService))
                .send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 200) {
            throw new IOException("GET " + url + ": " + r.statusCode());
        }
        if (!(json.readTree(r.body()) instanceof ObjectNode o)) {
            throw new IOException("GET " + url + ": not a JSON object");
        }
        return o;
    }

    /** The remote groups, ordered as kube orders them; versions never fetched are not listed. */
    List<DiscoverySource.Group> groups() {
        Map<String, List<Entry>> byGroup = new LinkedHashMap<>();
        entries.values().stream().filter(e -> e.resourceList() != null)
                .sorted(Comparator.comparingInt(Entry::groupPriority).reversed().thenComparing(Entry::group))
                .forEach(e -> byGroup.computeIfAbsent(e.group(), g -> new ArrayList<>()).add(e));
        List<DiscoverySource.Group> groups = new ArrayList<>();
        byGroup.forEach((group, versions) -> groups.add(new DiscoverySource.Group(group, versions.stream()
                .sorted(Comparator.comparingInt(Entry::versionPriority).reversed()
                        .thenComparing(Entry::version, VersionPriority::compare))
                .map(e -> new DiscoverySource.Version(e.version(), e.resourceList(), e.stale(),
                        e.stale() ? null : e.openAPIV3())).toList())));
        return groups;
    }
}
