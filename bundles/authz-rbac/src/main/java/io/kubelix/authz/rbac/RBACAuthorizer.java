package io.kubelix.authz.rbac;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.Authorizer;
import io.kubelix.api.authz.RuleResolver;
import io.kubelix.api.authz.SubjectRules;
import io.kubelix.api.informer.ResourceEventHandler;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.server.HealthChecker;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * kube-apiserver's RBAC authorizer ({@code --authorization-mode=RBAC}): allows a request when a
 * rule of a role bound to the user, one of its groups or its service account grants it. Roles and
 * bindings are read through the server's informers, so a change applies as soon as its watch
 * event arrives, without a restart. It never denies: a request no rule grants gets no opinion,
 * with the problems met on the way (a binding to a missing role) as the reason. Until its
 * informers have synced it is not ready ({@code /readyz/authz-rbac}).
 */
@Component(service = {Authorizer.class, HealthChecker.class},
        property = {Authorizer.MODE + "=RBAC", HealthChecker.ENDPOINTS_PROPERTY + "=readyz"})
public final class RBACAuthorizer implements Authorizer, RuleResolver, HealthChecker {
    private static final Logger LOG = LoggerFactory.getLogger(RBACAuthorizer.class);
    static final GroupVersionResource ROLES = rbac("roles");
    static final GroupVersionResource CLUSTER_ROLES = rbac("clusterroles");
    static final GroupVersionResource ROLE_BINDINGS = rbac("rolebindings");
    static final GroupVersionResource CLUSTER_ROLE_BINDINGS = rbac("clusterrolebindings");

    private final RbacPolicy policy;
    private final List<ResourceEventHandlerRegistration> registrations = new ArrayList<>();

    @Activate
    public RBACAuthorizer(@Reference SharedInformerFactory informers) {
        this(new RbacPolicy());
        registrations.add(informers.forResource(CLUSTER_ROLES).addEventHandler(
                handler(policy::putClusterRole, policy::removeClusterRole)));
        registrations.add(informers.forResource(ROLES).addEventHandler(handler(policy::putRole, policy::removeRole)));
        registrations.add(informers.forResource(CLUSTER_ROLE_BINDINGS).addEventHandler(
                handler(policy::putBinding, policy::removeBinding)));
        registrations.add(informers.forResource(ROLE_BINDINGS).addEventHandler(
                handler(policy::putBinding, policy::removeBinding)));
        LOG.info("RBAC authorizer started: roles and bindings read through informers");
    }

    /** An authorizer over a policy its caller fills. */
    RBACAuthorizer(RbacPolicy policy) {
        this.policy = policy;
    }

    @Deactivate
    void deactivate() {
        registrations.forEach(ResourceEventHandlerRegistration::close);
    }

    @Override
    public AuthorizationDecision authorize(UserInfo user, RequestInfo request) {
        String[] allowedBy = new String[1];
        List<String> errors = policy.visitRulesFor(user, request.namespace(), (binding, rule) -> {
            if (rule.allows(request)) {
                allowedBy[0] = binding.describe() + " of " + binding.roleKind() + " \"" + binding.roleName() + "\"";
                return false;
            }
            return true;
        });
        if (allowedBy[0] != null) {
            return AuthorizationDecision.allow("RBAC: allowed by " + allowedBy[0]);
        }
        if (errors.isEmpty()) {
            return AuthorizationDecision.noOpinion();
        }
        return new AuthorizationDecision(AuthorizationDecision.Decision.NO_OPINION, "RBAC: " + aggregate(errors));
    }

    /** utilerrors.NewAggregate's text: one error as itself, several in brackets. */
    private static String aggregate(List<String> errors) {
        return errors.isEmpty() ? "" : errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
    }

    /** kube's RBAC {@code RulesFor}: incomplete when a binding names a missing role. */
    @Override
    public SubjectRules rulesFor(UserInfo user, String namespace) {
        List<SubjectRules.ResourceRule> resources = new ArrayList<>();
        List<SubjectRules.NonResourceRule> nonResources = new ArrayList<>();
        List<String> errors = policy.visitRulesFor(user, namespace, (binding, rule) -> {
            if (!rule.resources().isEmpty()) {
                resources.add(new SubjectRules.ResourceRule(rule.verbs(), rule.apiGroups(), rule.resources(),
                        rule.resourceNames()));
            }
            if (!rule.nonResourceURLs().isEmpty()) {
                nonResources.add(new SubjectRules.NonResourceRule(rule.verbs(), rule.nonResourceURLs()));
            }
            return true;
        });
        return new SubjectRules(resources, nonResources, !errors.isEmpty(), aggregate(errors));
    }

    @Override
    public String name() {
        return "authz-rbac";
    }

    @Override
    public void check() {
        for (ResourceEventHandlerRegistration r : registrations) {
            if (!r.hasSynced()) {
                throw new IllegalStateException("roles and bindings are not synced yet");
            }
        }
    }

    private static ResourceEventHandler handler(Consumer<ObjectNode> put, Consumer<ObjectNode> remove) {
        return new ResourceEventHandler() {
            @Override
            public void onAdd(ObjectNode obj, boolean isInInitialList) {
                put.accept(obj);
            }

            @Override
            public void onUpdate(ObjectNode oldObj, ObjectNode newObj) {
                put.accept(newObj);
            }

            @Override
            public void onDelete(ObjectNode obj) {
                remove.accept(obj);
            }
        };
    }

    private static GroupVersionResource rbac(String resource) {
        return new GroupVersionResource(RbacPolicy.GROUP, "v1", resource);
    }
}
