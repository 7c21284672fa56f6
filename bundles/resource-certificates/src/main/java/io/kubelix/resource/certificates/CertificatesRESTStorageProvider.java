package io.kubelix.resource.certificates;

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

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The certificates.k8s.io group's RESTStorageProvider: {@code /apis/certificates.k8s.io/v1}
 * certificatesigningrequests (cluster-scoped, short name {@code csr}) with the {@code status} and
 * {@code approval} subresources. It also runs kube-controller-manager's signer of
 * {@code kubernetes.io/kube-apiserver-client} ({@link CSRSigningController}), which writes the
 * certificates through the {@code status} subresource built here.
 */
@Component(service = RESTStorageProvider.class)
public final class CertificatesRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "certificates.k8s.io";
    static final String VERSION = "v1";
    static final GroupResource CSRS = GroupResource.of(GROUP, "certificatesigningrequests");
    static final GroupVersionResource CSRS_V1 = new GroupVersionResource(GROUP, VERSION, CSRS.resource());

    private static final Logger LOG = LoggerFactory.getLogger(CertificatesRESTStorageProvider.class);

    /** The {@code status} subresource most recently built; null before the first build. */
    private final AtomicReference<StatusStorage> status = new AtomicReference<>();
    private final CSRSigningController signer;

    @Activate
    public CertificatesRESTStorageProvider(@Reference SharedInformerFactory informers, BundleContext context) {
        this.signer = new CSRSigningController(informers, status::get, SigningAuthority.configured(context),
                SigningAuthority.duration(context), Clock.systemUTC());
    }

    @Deactivate
    void deactivate() {
        signer.stop();
    }

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Clock clock = Clock.systemUTC();
        StandardStorage csrs = getter.newStore(csrSpec());
        Map<String, RESTStorage> v1 = new LinkedHashMap<>();
        v1.put(CSRS.resource(), csrs);
        StatusStorage statusStore = getter.newStatusStore(csrs, new CSRStatusStrategy(clock));
        v1.put(CSRS.resource() + "/status", statusStore);
        v1.put(CSRS.resource() + "/approval", getter.newStatusStore(csrs, new CSRApprovalStrategy(clock)));
        status.set(statusStore);
        LOG.info("built certificates.k8s.io/v1 storage: {}", v1.keySet());
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, v1));
    }

    /**
     * kube does not restrict CSR names (ValidateCertificateRequestName) beyond being a path segment;
     * {@code spec.signerName} is a field selector, as signers list their requests by it.
     */
    static StoreSpec csrSpec() {
        return StoreSpec.builder(CSRS, "CertificateSigningRequest")
                .namespaced(false)
                .schema(ResourceSchema.load(CertificatesRESTStorageProvider.class, "/openapi/schemas.json",
                        "io.k8s.api.certificates.v1.CertificateSigningRequest"))
                .shortNames("csr")
                .nameValidation(NameValidation.PATH_SEGMENT)
                .strategy(new CSRStrategy())
                .selectableField("spec.signerName", o -> o.path("spec").path("signerName").asText(""))
                .tableColumns(CSRPrinters.columns().toArray(TableColumn[]::new))
                .build();
    }
}
