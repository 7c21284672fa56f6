package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.informer.Workers;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.UserInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * kube-aggregator's AvailableConditionController for remote APIServices: sets {@code Available}
 * from what it finds: the service ({@code ServiceNotFound}), for a cluster IP service its port
 * ({@code ServicePortError}) and endpoint slices ({@code EndpointsNotFound}, {@code MissingEndpoints}),
 * then a GET of the group version's discovery document as {@code system:kube-aggregator} in
 * {@code system:masters} ({@code FailedDiscoveryCheck}, else {@code Passed}). Checked again when an
 * APIService, its service or its endpoint slices change, every 30 seconds, and, after a failure,
 * with the queue's back-off. The status is written only when it changes.
 */
final class AvailableConditionController {
    static final Duration RESYNC = Duration.ofSeconds(30);
    static final Duration DISCOVERY_TIMEOUT = Duration.ofSeconds(5);
    static final int ATTEMPTS = 5;
    static final UserInfo AGGREGATOR = new UserInfo("system:kube-aggregator", "",
            List.of(UserInfo.SYSTEM_PRIVILEGED_GROUP), Map.of());
    private static final Logger LOG = LoggerFactory.getLogger(AvailableConditionController.class);

    /** The outcome of one check: the condition to set. */
    record Check(String status, String reason, String message) {
    }

    private final SharedIndexInformer apiServices;
    private final SharedIndexInformer endpointSlices;
    private final ServiceResolver services;
    private final Function<URI, String> discovery;
    private final Updater status;
    private final Clock clock;
    private final RateLimitingQueue<String> queue;
    private final List<ResourceEventHandlerRegistration> registrations = new ArrayList<>();
    private final Workers workers;

    AvailableConditionController(SharedInformerFactory informers, SharedIndexInformer apiServices,
                                 SharedIndexInformer serviceInformer, SharedIndexInformer endpointSlices,
                                 ServiceResolver services, ProxyTransports transports, Updater status, Clock clock) {
        this.apiServices = apiServices;
        this.endpointSlices = endpointSlices;
        this.services = services;
        this.discovery = url -> discoveryCheck(transports.insecureClient(), url);
        this.status = status;
        this.clock = clock;
        this.queue = informers.newRateLimitingQueue("RemoteAvailabilityController");
        registrations.add(apiServices.addEventHandler(new EnqueueHandler(queue, o -> List.of(name(o))), RESYNC));
        registrations.add(serviceInformer.addEventHandler(new EnqueueHandler(queue,
                o -> apiServicesFor(namespace(o), name(o)))));
        registrations.add(endpointSlices.addEventHandler(new EnqueueHandler(queue, o -> apiServicesFor(namespace(o),
                o.path("metadata").path("labels").path(ServiceResolver.SERVICE_NAME_LABEL).asText("")))));
        this.workers = informers.runWorkers("RemoteAvailabilityController", queue, ATTEMPTS, this::sync);
    }

    void stop() {
        registrations.forEach(ResourceEventHandlerRegistration::close);
        workers.stop();
    }

    /** The remote APIServices whose service is {@code namespace/name}. */
    private List<String> apiServicesFor(String namespace, String name) {
        List<String> names = new ArrayList<>();
        for (ObjectNode a : apiServices.lister().list()) {
            JsonNode service = APIServices.service(a);
            if (service != null && service.path("namespace").asText().equals(namespace)
                    && service.path("name").asText().equals(name)) {
                names.add(name(a));
            }
        }
        return names;
    }

    private static String name(JsonNode o) {
        return o.path("metadata").path("name").asText("");
    }

    private static String namespace(JsonNode o) {
        return o.path("metadata").path("namespace").asText("");
    }

    void sync(String name) {
        ObjectNode apiService = apiServices.lister().get(name).orElse(null);
        if (apiService == null || APIServices.service(apiService) == null) {
            return;
        }
        Check check = check(apiService);
        ObjectNode updated = apiService.deepCopy();
        APIServices.setAvailable(updated, check.status(), check.reason(), check.message(), clock.instant());
        if (!Objects.equals(updated.get("status"), apiService.get("status"))) {
            JsonNode was = APIServices.availableCondition(apiService);
            if (was == null || !check.status().equals(was.path("status").asText())) {
                LOG.info("changing APIService {} availability to {} ({}): {}", name, check.status(), check.reason(),
                        check.message());
            }
            writeStatus(name, check);
        }
        if (check.reason().equals("FailedDiscoveryCheck")) {
            // retried with the queue's back-off, besides the resync and the service's changes
            throw StatusException.serviceUnavailable(check.message());
        }
    }

    private void writeStatus(String name, Check check) {
        try {
            status.update(RequestContext.system(""), name, (ctx, current) -> {
                if (current == null) {
                    throw StatusException.notFound(APIServiceRESTStorageProvider.API_SERVICES, name);
                }
                ObjectNode updated = current.deepCopy();
                APIServices.setAvailable(updated, check.status(), check.reason(), check.message(), clock.instant());
                return updated;
            }, new UpdateOptions(false, "kube-apiserver"));
        } catch (StatusException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }

    /** What kube's sync finds, in its order. */
    Check check(ObjectNode apiService) {
        JsonNode ref = APIServices.service(apiService);
        String namespace = ref.path("namespace").asText();
        String name = ref.path("name").asText();
        int port = ref.path("port").asInt(APIServiceStrategy.DEFAULT_SERVICE_PORT);
        ObjectNode service = services.service(namespace, name);
        if (service == null) {
            return new Check("False", "ServiceNotFound", "service/" + name + " in \"" + namespace + "\" is not present");
        }
        if (service.path("spec").path("type").asText("ClusterIP").equals("ClusterIP")) {
            String portName = null;
            for (JsonNode p : service.path("spec").path("ports")) {
                if (p.path("port").asInt(-1) == port) {
                    portName = p.path("name").asText("");
                    break;
                }
            }
            if (portName == null) {
                return new Check("False", "ServicePortError", "service/" + name + " in \"" + namespace
                        + "\" is not listening on port " + port);
            }
            List<ObjectNode> slices = endpointSlices.lister().byNamespace(namespace).list().stream()
                    .filter(s -> name.equals(s.path("metadata").path("labels").path(ServiceResolver.SERVICE_NAME_LABEL).asText(null)))
                    .toList();
            if (slices.isEmpty()) {
                return new Check("False", "EndpointsNotFound", "cannot find endpointslices for service/" + name
                        + " in \"" + namespace + "\"");
            }
            if (!hasAvailableEndpoint(portName, slices)) {
                return new Check("False", "MissingEndpoints", "endpointslices for service/" + name + " in \"" + namespace
                        + "\" have no addresses with port name \"" + portName + "\"");
            }
        }
        String version = apiService.path("spec").path("version").asText();
        String path = name(apiService).equals("v1.") ? "/api/" + version
                : "/apis/" + apiService.path("spec").path("group").asText() + "/" + version;
        String failure;
        try {
            failure = discovery.apply(URI.create(services.resolve(namespace, name, port) + path));
        } catch (IllegalStateException e) {
            failure = e.getMessage();
        }
        if (failure != null) {
            return new Check("False", "FailedDiscoveryCheck", failure);
        }
        return new Check("True", "Passed", "all checks passed");
    }

    /** kube's hasAvailableEndpoint: a slice with a ready endpoint and a port of that name. */
    static boolean hasAvailableEndpoint(String portName, List<ObjectNode> slices) {
        for (ObjectNode s : slices) {
            boolean ready = false;
            for (JsonNode e : s.path("endpoints")) {
                JsonNode r = e.path("conditions").get("ready");
                ready |= r == null || r.isNull() || r.asBoolean();
            }
            if (!ready) {
                continue;
            }
            for (JsonNode p : s.path("ports")) {
                if (p.hasNonNull("name") && p.path("name").asText().equals(portName) && p.hasNonNull("port")) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * kube's discovery check: {@value #ATTEMPTS} GETs at once, each within {@link #DISCOVERY_TIMEOUT};
     * one answer in the 200s passes.
     *
     * @return null when it passed, else the last failure as kube words it
     */
    static String discoveryCheck(HttpClient client, URI url) {
        List<CompletableFuture<String>> attempts = new ArrayList<>();
        for (int i = 0; i < ATTEMPTS; i++) {
            HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(DISCOVERY_TIMEOUT).GET();
            AuthProxyHeaders.set(request, AGGREGATOR);
            attempts.add(client.sendAsync(request.build(), HttpResponse.BodyHandlers.discarding())
                    .handle((r, e) -> {
                        if (e != null) {
                            Throwable t = e.getCause() != null ? e.getCause() : e;
                            String cause = t instanceof IOException io ? APIServiceProxy.describe(io, url) : t.toString();
                            return "failing or missing response from " + url + ": Get \"" + url + "\": " + cause;
                        }
                        if (r.statusCode() < 200 || r.statusCode() >= 300) {
                            return "failing or missing response from " + url + ": bad status from " + url + ": "
                                    + r.statusCode();
                        }
                        return null;
                    }));
        }
        String last = null;
        for (CompletableFuture<String> attempt : attempts) {
            last = attempt.join();
            if (last == null) {
                return null;
            }
        }
        return last;
    }
}
