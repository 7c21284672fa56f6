package io.kubelix.resource.admissionregistration;

import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StorageConversion;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.registry.StatusStorage;
import io.kubelix.api.schema.SchemaResolver;
import io.kubelix.support.admission.PolicyTypeChecker;
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
 * The admissionregistration.k8s.io group's RESTStorageProvider: {@code
 * /apis/admissionregistration.k8s.io/v1} mutatingwebhookconfigurations,
 * validatingwebhookconfigurations, validatingadmissionpolicies (with {@code status}) and
 * validatingadmissionpolicybindings, all cluster-scoped and in category {@code api-extensions}, as
 * in kube. Objects only: the webhooks are called and the policies enforced by the admission plugins;
 * this bundle runs kube's policy status controller, which type-checks each policy's expressions.
 */
@Component(service = RESTStorageProvider.class)
public final class AdmissionRegistrationRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "admissionregistration.k8s.io";
    static final String VERSION = "v1";
    static final GroupResource MUTATING_WEBHOOKS = GroupResource.of(GROUP, "mutatingwebhookconfigurations");
    static final GroupResource VALIDATING_WEBHOOKS = GroupResource.of(GROUP, "validatingwebhookconfigurations");
    static final GroupResource POLICIES = GroupResource.of(GROUP, "validatingadmissionpolicies");
    static final GroupResource POLICY_BINDINGS = GroupResource.of(GROUP, "validatingadmissionpolicybindings");
    static final GroupResource MUTATING_POLICIES = GroupResource.of(GROUP, "mutatingadmissionpolicies");
    static final GroupResource MUTATING_POLICY_BINDINGS = GroupResource.of(GROUP, "mutatingadmissionpolicybindings");

    private static final Logger LOG = LoggerFactory.getLogger(AdmissionRegistrationRESTStorageProvider.class);

    private final SharedInformerFactory informers;
    private final SchemaResolver schemas;
    private PolicyTypeCheckingController typeChecking;

    @Activate
    public AdmissionRegistrationRESTStorageProvider(@Reference SharedInformerFactory informers,
                                                    @Reference SchemaResolver schemas) {
        this.informers = informers;
        this.schemas = schemas;
    }

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, RESTStorage> v1 = new LinkedHashMap<>();
        v1.put(VALIDATING_WEBHOOKS.resource(), getter.newStore(validatingWebhookSpec()));
        v1.put(MUTATING_WEBHOOKS.resource(), getter.newStore(mutatingWebhookSpec()));
        StandardStorage policies = getter.newStore(policySpec());
        v1.put(POLICIES.resource(), policies);
        StatusStorage policyStatus = getter.newStatusStore(policies, new PolicyStatusStrategy());
        v1.put(POLICIES.resource() + "/status", policyStatus);
        v1.put(POLICY_BINDINGS.resource(), getter.newStore(policyBindingSpec()));
        synchronized (this) {
            stopController();
            typeChecking = new PolicyTypeCheckingController(informers, policyStatus, new PolicyTypeChecker(schemas));
        }
        Map<String, RESTStorage> v1beta1 = new LinkedHashMap<>();
        v1beta1.put(MUTATING_POLICIES.resource(), getter.newStore(mutatingPolicySpec("v1beta1", null)));
        v1beta1.put(MUTATING_POLICY_BINDINGS.resource(), getter.newStore(mutatingPolicyBindingSpec("v1beta1", null)));
        Map<String, RESTStorage> v1alpha1 = new LinkedHashMap<>();
        AlphaPolicyConversion alpha = new AlphaPolicyConversion();
        v1alpha1.put(MUTATING_POLICIES.resource(), getter.newStore(mutatingPolicySpec("v1alpha1", alpha)));
        v1alpha1.put(MUTATING_POLICY_BINDINGS.resource(), getter.newStore(mutatingPolicyBindingSpec("v1alpha1", alpha)));
        LOG.info("built {} storage: v1 {}, v1beta1 and v1alpha1 {}", GROUP, v1.keySet(), v1beta1.keySet());
        return new APIGroupInfo(GROUP, List.of(VERSION, "v1beta1", "v1alpha1"),
                Map.of(VERSION, v1, "v1beta1", v1beta1, "v1alpha1", v1alpha1));
    }

    @Deactivate
    synchronized void deactivate() {
        stopController();
    }

    private void stopController() {
        if (typeChecking != null) {
            typeChecking.stop();
            typeChecking = null;
        }
    }

    static StoreSpec mutatingWebhookSpec() {
        return spec(MUTATING_WEBHOOKS, "MutatingWebhookConfiguration", WebhookConfigurationStrategy.mutating(),
                AdmissionPrinters.webhookConfigurationColumns());
    }

    static StoreSpec validatingWebhookSpec() {
        return spec(VALIDATING_WEBHOOKS, "ValidatingWebhookConfiguration", WebhookConfigurationStrategy.validating(),
                AdmissionPrinters.webhookConfigurationColumns());
    }

    static StoreSpec policySpec() {
        return spec(POLICIES, "ValidatingAdmissionPolicy", new ValidatingAdmissionPolicyStrategy(),
                AdmissionPrinters.policyColumns());
    }

    static StoreSpec policyBindingSpec() {
        return spec(POLICY_BINDINGS, "ValidatingAdmissionPolicyBinding", new ValidatingAdmissionPolicyBindingStrategy(),
                AdmissionPrinters.bindingColumns());
    }

    /**
     * A MutatingAdmissionPolicy in {@code version}; {@code v1alpha1} is kept as {@code v1beta1}
     * ({@code conversion}), kube's storage version.
     */
    static StoreSpec mutatingPolicySpec(String version, StorageConversion conversion) {
        return mutatingSpec(MUTATING_POLICIES, "MutatingAdmissionPolicy", version, conversion,
                new MutatingAdmissionPolicyStrategy(), AdmissionPrinters.mutatingPolicyColumns());
    }

    static StoreSpec mutatingPolicyBindingSpec(String version, StorageConversion conversion) {
        return mutatingSpec(MUTATING_POLICY_BINDINGS, "MutatingAdmissionPolicyBinding", version, conversion,
                new MutatingAdmissionPolicyBindingStrategy(), AdmissionPrinters.bindingColumns());
    }

    private static <S extends RESTCreateStrategy & RESTUpdateStrategy> StoreSpec mutatingSpec(
            GroupResource gr, String kind, String version, StorageConversion conversion, S strategy,
            List<TableColumn> columns) {
        ResourceSchema alpha = ResourceSchema.load(AdmissionRegistrationRESTStorageProvider.class,
                "/openapi/schemas.json", "io.k8s.api.admissionregistration.v1alpha1." + kind);
        StoreSpec.Builder b = StoreSpec.builder(gr, kind)
                .namespaced(false)
                .schema(SchemaVersions.renamed(alpha, ".v1alpha1.", "." + version + "."))
                .categories("api-extensions")
                .strategy(strategy)
                .generation(true)
                .tableColumns(columns.toArray(TableColumn[]::new));
        if (conversion != null) {
            b.storedAs("/" + gr.resource(), conversion);
        }
        return b.build();
    }

    /**
     * The OpenAPI schema of an admissionregistration/v1 kind, from {@code openapi/schemas.json},
     * which the build generates from the Kubernetes Java client (the {@code openapi-schemas}
     * execution in this bundle's POM).
     */
    static ResourceSchema schema(String kind) {
        return ResourceSchema.load(AdmissionRegistrationRESTStorageProvider.class, "/openapi/schemas.json",
                "io.k8s.api.admissionregistration.v1." + kind);
    }

    /** A cluster-scoped resource in category api-extensions whose generation follows changes outside metadata and status. */
    private static <S extends RESTCreateStrategy & RESTUpdateStrategy> StoreSpec spec(GroupResource gr, String kind,
                                                                                       S strategy, List<TableColumn> columns) {
        return StoreSpec.builder(gr, kind)
                .namespaced(false)
                .schema(schema(kind))
                .categories("api-extensions")
                .strategy(strategy)
                .generation(true)
                .tableColumns(columns.toArray(TableColumn[]::new))
                .build();
    }
}
