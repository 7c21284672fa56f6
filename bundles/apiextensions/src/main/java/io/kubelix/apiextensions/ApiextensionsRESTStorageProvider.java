package io.kubelix.apiextensions;

import io.kubelix.apiextensions.controller.EstablishingController;
import io.kubelix.apiextensions.controller.FinalizingController;
import io.kubelix.apiextensions.controller.NamingController;
import io.kubelix.apiextensions.customresource.CustomResourceServing;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StatusStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.schema.ResourceSchema;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The APIExtensionsServer: {@code /apis/apiextensions.k8s.io/v1} customresourcedefinitions (with
 * {@code status}), and, once its Stores are built, kube's controllers on the server's informers:
 * naming ({@code NamesAccepted}, {@code status.acceptedNames}), the crdHandler that serves each
 * group's custom resources through the core API ({@link CustomResourceServing}), establishing
 * ({@code Established}) and finalizing (a deleted CRD's objects go before it does).
 */
@Component(service = RESTStorageProvider.class)
public final class ApiextensionsRESTStorageProvider implements RESTStorageProvider {
    static final GroupResource CRDS = GroupResource.of(Crds.GROUP, "customresourcedefinitions");
    static final GroupVersionResource CRDS_V1 = new GroupVersionResource(Crds.GROUP, Crds.VERSION, CRDS.resource());
    private static final Logger LOG = LoggerFactory.getLogger(ApiextensionsRESTStorageProvider.class);

    private final BundleContext context;
    private final SharedInformerFactory informers;
    private NamingController naming;
    private EstablishingController establishing;
    private CustomResourceServing serving;
    private FinalizingController finalizing;

    @Activate
    public ApiextensionsRESTStorageProvider(BundleContext context, @Reference SharedInformerFactory informers) {
        this.context = context;
        this.informers = informers;
    }

    @Override
    public String groupName() {
        return Crds.GROUP;
    }

    /** Builds the CRD Stores, then (again, when called again) the controllers writing through them. */
    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        StandardStorage crds = getter.newStore(spec());
        StatusStorage status = getter.newStatusStore(crds, new CrdStatusStrategy());
        Map<String, RESTStorage> v1 = new LinkedHashMap<>();
        v1.put(CRDS.resource(), crds);
        v1.put(CRDS.resource() + "/status", status);
        synchronized (this) {
            stopControllers();
            SharedIndexInformer informer = informers.forResource(CRDS_V1);
            establishing = new EstablishingController(informers, informer, status);
            serving = new CustomResourceServing(context, informers, informer, establishing::queue);
            naming = new NamingController(informers, informer, status);
            finalizing = new FinalizingController(informers, informer, status, serving::storageStore);
        }
        LOG.info("built {}/{} storage: {}", Crds.GROUP, Crds.VERSION, v1.keySet());
        return new APIGroupInfo(Crds.GROUP, List.of(Crds.VERSION), Map.of(Crds.VERSION, v1));
    }

    @Deactivate
    synchronized void deactivate() {
        stopControllers();
    }

    private void stopControllers() {
        if (naming != null) {
            naming.stop();
            finalizing.stop();
            serving.stop();
            establishing.stop();
        }
    }

    /**
     * The Store of CRDs, with the OpenAPI schema the build generates from the Kubernetes Java client
     * (the {@code openapi-schemas} execution in this bundle's POM), for {@code kubectl explain crd},
     * unknown fields and server-side apply.
     */
    static StoreSpec spec() {
        return StoreSpec.builder(CRDS, "CustomResourceDefinition")
                .namespaced(false)
                .resourcePrefix("/" + Crds.GROUP + "/" + CRDS.resource())
                .shortNames("crd", "crds")
                .categories("api-extensions")
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(new CrdStrategy())
                .generation(true)
                .schema(ResourceSchema.load(ApiextensionsRESTStorageProvider.class, "/openapi/schemas.json",
                        "io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition"))
                .tableColumns(TableColumn.nameColumn(), new TableColumn("Created At", "date", "",
                        "CreationTimestamp is a timestamp representing the server time when this object was created. "
                                + "It is not guaranteed to be set in happens-before order across separate operations. "
                                + "Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\n"
                                + "Populated by the system. Read-only. Null for lists. More info: "
                                + "https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata",
                        0, o -> o.path("metadata").path("creationTimestamp").asText(null)))
                .build();
    }
}
