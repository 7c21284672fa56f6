package io.kubelix.resource.rbac;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.Getter;
import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.server.PostStartHook;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.ResourceSchema;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The rbac.authorization.k8s.io group's RESTStorageProvider (kube's rbac RESTStorageProvider):
 * {@code /apis/rbac.authorization.k8s.io/v1} roles and rolebindings (namespaced), clusterroles and
 * clusterrolebindings (cluster-scoped). Once the Stores are built it runs the
 * {@link PolicyReconciler} on its own thread to put kube's default roles and bindings in place,
 * and the {@link ClusterRoleAggregationController}. It is also kube's {@code rbac/bootstrap-roles}
 * post-start hook: {@code /readyz} waits until the default roles and bindings are in place, so a
 * client that waits for readiness is authorized by them at once.
 */
@Component(service = {RESTStorageProvider.class, PostStartHook.class})
public final class RbacRESTStorageProvider implements RESTStorageProvider, PostStartHook {
    static final String GROUP = RbacValidation.GROUP;
    static final String VERSION = "v1";
    static final GroupResource ROLES = GroupResource.of(GROUP, "roles");
    static final GroupResource ROLEBINDINGS = GroupResource.of(GROUP, "rolebindings");
    static final GroupResource CLUSTERROLES = GroupResource.of(GROUP, "clusterroles");
    static final GroupResource CLUSTERROLEBINDINGS = GroupResource.of(GROUP, "clusterrolebindings");

    private static final Logger LOG = LoggerFactory.getLogger(RbacRESTStorageProvider.class);

    private final ObjectMapper mapper = new ObjectMapper();
    private final ScheduledExecutorService executor;
    private PolicyReconciler reconciler;
    /** Completed once a reconciler has put the bootstrap policy in place. */
    private final CompletableFuture<Void> bootstrapped = new CompletableFuture<>();

    @Reference
    private SharedInformerFactory informers;
    private ClusterRoleAggregationController aggregation;

    /** The server's authorization, for the escalation checks; absent, only system:masters may grant. */
    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile AuthorizationChain authorization;

    @Activate
    public RbacRESTStorageProvider() {
        this(Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kubelix-rbac-bootstrap");
            t.setDaemon(true);
            return t;
        }));
    }

    /** For tests: the executor that runs the {@link PolicyReconciler}. */
    RbacRESTStorageProvider(ScheduledExecutorService executor) {
        this.executor = executor;
    }

    @Override
    public String groupName() {
        return GROUP;
    }

    /** Builds the Stores; when called again the bootstrap runs again on the new ones. */
    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, RESTStorage> v1 = new LinkedHashMap<>();
        // A binding's escalation check reads the rules of the role it names, from the Stores built here.
        EscalationCheck escalation = new EscalationCheck(() -> authorization, (ctx, kind, name, namespace) -> {
            boolean role = "Role".equals(kind);
            Getter roles = (Getter) v1.get(role ? ROLES.resource() : CLUSTERROLES.resource());
            return roles.get(RequestContext.system(role ? namespace : ""), name, "").path("rules");
        });
        StandardStorage clusterRoles = getter.newStore(spec(CLUSTERROLES, "ClusterRole", false,
                RoleStrategy.clusterRole().withEscalationCheck(escalation), RbacPrinters.roleColumns()));
        StandardStorage clusterRoleBindings = getter.newStore(spec(CLUSTERROLEBINDINGS, "ClusterRoleBinding", false,
                RoleBindingStrategy.clusterRoleBinding().withEscalationCheck(escalation),
                RbacPrinters.bindingColumns("clusterRoleBinding")));
        StandardStorage roles = getter.newStore(spec(ROLES, "Role", true,
                RoleStrategy.role().withEscalationCheck(escalation), RbacPrinters.roleColumns()));
        StandardStorage roleBindings = getter.newStore(spec(ROLEBINDINGS, "RoleBinding", true,
                RoleBindingStrategy.roleBinding().withEscalationCheck(escalation),
                RbacPrinters.bindingColumns("roleBinding")));
        v1.put(ROLES.resource(), roles);
        v1.put(ROLEBINDINGS.resource(), roleBindings);
        v1.put(CLUSTERROLES.resource(), clusterRoles);
        v1.put(CLUSTERROLEBINDINGS.resource(), clusterRoleBindings);
        synchronized (this) {
            if (reconciler != null) {
                reconciler.stop();
            }
            reconciler = new PolicyReconciler(BootstrapPolicy.load(mapper), clusterRoles, clusterRoleBindings, roles,
                    roleBindings, executor,
                    () -> bootstrapped.complete(null));
            reconciler.start();
            if (aggregation != null) {
                aggregation.stop();
            }
            aggregation = new ClusterRoleAggregationController(informers, clusterRoles);
        }
        LOG.info("built {}/{} storage: {}", GROUP, VERSION, v1.keySet());
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, v1));
    }

    @Override
    public String name() {
        return "rbac/bootstrap-roles";
    }

    /** Returns once the bootstrap policy is in place. */
    @Override
    public void run() throws Exception {
        try {
            bootstrapped.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    @Deactivate
    void deactivate() {
        synchronized (this) {
            if (reconciler != null) {
                reconciler.stop();
            }
            if (aggregation != null) {
                aggregation.stop();
            }
        }
        executor.shutdownNow();
    }

    /** The Stores' specs, validating without the escalation check (which needs the Stores). */
    static StoreSpec roleSpec() {
        return spec(ROLES, "Role", true, RoleStrategy.role(), RbacPrinters.roleColumns());
    }

    static StoreSpec clusterRoleSpec() {
        return spec(CLUSTERROLES, "ClusterRole", false, RoleStrategy.clusterRole(), RbacPrinters.roleColumns());
    }

    static StoreSpec roleBindingSpec() {
        return spec(ROLEBINDINGS, "RoleBinding", true, RoleBindingStrategy.roleBinding(),
                RbacPrinters.bindingColumns("roleBinding"));
    }

    static StoreSpec clusterRoleBindingSpec() {
        return spec(CLUSTERROLEBINDINGS, "ClusterRoleBinding", false, RoleBindingStrategy.clusterRoleBinding(),
                RbacPrinters.bindingColumns("clusterRoleBinding"));
    }

    /**
     * The OpenAPI schema of an rbac/v1 kind, from {@code openapi/schemas.json}, which the build
     * generates from the Kubernetes Java client (the {@code openapi-schemas} execution in this
     * bundle's POM).
     */
    static ResourceSchema schema(String kind) {
        return ResourceSchema.load(RbacRESTStorageProvider.class, "/openapi/schemas.json", "io.k8s.api.rbac.v1." + kind);
    }

    /** RBAC names are path segments (kube's ValidateRBACName), so {@code system:discovery} is one. */
    private static <S extends io.kubelix.api.registry.RESTCreateStrategy & io.kubelix.api.registry.RESTUpdateStrategy>
    StoreSpec spec(GroupResource gr, String kind, boolean namespaced, S strategy, List<TableColumn> columns) {
        return StoreSpec.builder(gr, kind)
                .namespaced(namespaced)
                .schema(schema(kind))
                .nameValidation(NameValidation.PATH_SEGMENT)
                .strategy(strategy)
                .tableColumns(columns.toArray(TableColumn[]::new))
                .build();
    }
}
