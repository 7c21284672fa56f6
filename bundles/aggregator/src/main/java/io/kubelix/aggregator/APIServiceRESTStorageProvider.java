package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.registry.StatusStorage;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.server.ServedGroupVersions;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.Component;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The apiregistration.k8s.io group's RESTStorageProvider: {@code /apis/apiregistration.k8s.io/v1}
 * apiservices, cluster-scoped, with {@code status}, in category {@code api-extensions}, printed with
 * kube's columns (NAME, SERVICE, AVAILABLE, AGE). Once its Stores are built it runs the
 * controllers that write through them: availability ({@link AvailableConditionController}) and
 * autoregistration of local APIServices ({@link AutoRegistrationController}).
 */
@Component(service = RESTStorageProvider.class)
public final class APIServiceRESTStorageProvider implements RESTStorageProvider {
    static final GroupResource API_SERVICES = GroupResource.of(APIServices.GROUP, "apiservices");
    static final GroupVersionResource ENDPOINT_SLICES = new GroupVersionResource("discovery.k8s.io", "v1",
            "endpointslices");

    private static final Logger LOG = LoggerFactory.getLogger(APIServiceRESTStorageProvider.class);

    private final SharedInformerFactory informers;
    private final ServedGroupVersions served;
    private final ProxyTransports transports;
    private final String enableAggregatorRouting;
    private AvailableConditionController availability;
    private AutoRegistrationController autoRegistration;

    @Activate
    public APIServiceRESTStorageProvider(BundleContext context, @Reference SharedInformerFactory informers,
                                         @Reference ServedGroupVersions served) {
        this.informers = informers;
        this.served = served;
        this.transports = new ProxyTransports(new ProxyClientCertificate(
                context.getProperty("kubelix.proxy-client-cert-file"), context.getProperty("kubelix.proxy-client-key-file")));
        this.enableAggregatorRouting = context.getProperty("kubelix.enable-aggregator-routing");
    }

    @Override
    public String groupName() {
        return APIServices.GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, RESTStorage> v1 = new LinkedHashMap<>();
        StandardStorage apiServices = getter.newStore(apiServiceSpec(Clock.systemUTC()));
        v1.put(API_SERVICES.resource(), apiServices);
        StatusStorage status = getter.newStatusStore(apiServices, new APIServiceStatusStrategy());
        v1.put(API_SERVICES.resource() + "/status", status);
        synchronized (this) {
            stopControllers();
            SharedIndexInformer informer = informers.forResource(APIAggregator.API_SERVICES);
            availability = new AvailableConditionController(informers, informer,
                    informers.forResource(APIAggregator.SERVICES), informers.forResource(ENDPOINT_SLICES),
                    ServiceResolver.forRouting(enableAggregatorRouting, informers), transports, status, Clock.systemUTC());
            autoRegistration = new AutoRegistrationController(informers, served, informer, apiServices);
        }
        LOG.info("built {}/{} storage: {}", APIServices.GROUP, APIServices.VERSION, v1.keySet());
        return new APIGroupInfo(APIServices.GROUP, List.of(APIServices.VERSION), Map.of(APIServices.VERSION, v1));
    }

    @Deactivate
    synchronized void deactivate() {
        stopControllers();
    }

    private void stopControllers() {
        if (availability != null) {
            availability.stop();
            autoRegistration.stop();
            availability = null;
            autoRegistration = null;
        }
    }

    static StoreSpec apiServiceSpec(Clock clock) {
        return StoreSpec.builder(API_SERVICES, "APIService")
                .namespaced(false)
                .categories("api-extensions")
                .nameValidation(NameValidation.PATH_SEGMENT)
                .strategy(new APIServiceStrategy(clock))
                .tableColumns(columns().toArray(TableColumn[]::new))
                .build();
    }

    /** kube-aggregator's APIService table: NAME, SERVICE, AVAILABLE, AGE. */
    static List<TableColumn> columns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Service", "string", "", "The reference to the service that hosts this API endpoint.",
                        0, APIServiceRESTStorageProvider::serviceCell),
                new TableColumn("Available", "string", "", "Whether this service is available.", 0,
                        APIServiceRESTStorageProvider::availableCell),
                TableColumn.ageColumn());
    }

    static String serviceCell(JsonNode apiService) {
        JsonNode service = apiService.path("spec").get("service");
        if (service == null || service.isNull()) {
            return "Local";
        }
        return service.path("namespace").asText("") + "/" + service.path("name").asText("");
    }

    static String availableCell(JsonNode apiService) {
        JsonNode c = APIServices.availableCondition(apiService);
        if (c == null) {
            return "Unknown";
        }
        String status = c.path("status").asText("");
        String reason = c.path("reason").asText("");
        return status.equals("True") || reason.isEmpty() ? status : status + " (" + reason + ")";
    }
}
