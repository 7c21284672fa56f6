package io.kubelix.admission.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.EquivalentResourceMapper;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.errors.StatusCause;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.support.admission.AdmissionMatcher;
import io.kubelix.support.admission.VersionedAttributes;
import io.kubelix.support.cel.CelValues;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The ValidatingAdmissionPolicy admission plugin (kube's {@code plugin/policy/validating}): every
 * {@code ValidatingAdmissionPolicy} whose {@code matchConstraints} match the request is evaluated
 * for each of its bindings that matches too, with the binding's params, in CEL; a failed validation
 * is acted on as the binding's {@code validationActions} say (Deny refuses the request with kube's
 * message, Warn adds a warning the client prints, Audit is logged and annotates the request's audit
 * events); the policy's {@code auditAnnotations} go to those events too. Policies, bindings and params
 * are read through the server's informers, so a change applies within a second. A policy whose
 * {@code matchConstraints} match the request through an equivalent resource
 * ({@code matchPolicy: Equivalent}) sees the objects converted to that resource's version.
 */
@Component(service = ValidatingAdmissionPlugin.class)
public final class ValidatingAdmissionPolicyPlugin implements ValidatingAdmissionPlugin {
    private static final Logger LOG = LoggerFactory.getLogger(ValidatingAdmissionPolicyPlugin.class);
    static final String PLUGIN_NAME = "ValidatingAdmissionPolicy";
    static final GroupVersionResource POLICIES = new GroupVersionResource("admissionregistration.k8s.io", "v1",
            "validatingadmissionpolicies");
    static final GroupVersionResource BINDINGS = new GroupVersionResource("admissionregistration.k8s.io", "v1",
            "validatingadmissionpolicybindings");
    static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");

    private final SharedIndexInformer namespaces;
    private final AdmissionMatcher matcher;
    private final PolicyParams params;
    /** Finds and converts equivalent resources. */
    private final EquivalentResourceMapper equivalents;
    /** Answers the expressions' {@code authorizer} checks. */
    private final AuthorizationChain authorization;
    private final PolicySource<CompiledPolicy> source;

    /** A failed validation of one binding, or a configuration error, that denies the request. */
    private record Denial(String policy, String binding, String message, String reason) {
    }

    @Activate
    public ValidatingAdmissionPolicyPlugin(@Reference SharedInformerFactory informers,
                                           @Reference AuthorizationChain authorization,
                                           @Reference EquivalentResourceMapper equivalents) {
        this.authorization = authorization;
        this.equivalents = equivalents;
        this.source = new PolicySource<>(informers.forResource(POLICIES), informers.forResource(BINDINGS),
                CompiledPolicy::new);
        this.namespaces = informers.forResource(NAMESPACES);
        this.matcher = new AdmissionMatcher(name -> namespaces.lister().get(name).orElse(null), equivalents);
        this.params = new PolicyParams(informers);
    }

    @Override
    public String name() {
        return PLUGIN_NAME;
    }

    @Override
    public boolean handles(Operation operation) {
        return true;
    }

    @Override
    public void validate(AdmissionAttributes a) {
        if (AdmissionMatcher.exempt(a)) {
            return;
        }
        List<PolicySource.Hook<CompiledPolicy>> hooks = source.hooks(a);
        if (hooks.isEmpty()) {
            return;
        }
        List<Denial> denials = new ArrayList<>();
        // what the expressions see, per version policies matched the request as, converted once
        Map<AdmissionMatcher.Match, Map<String, Object>> versions = new HashMap<>();
        for (PolicySource.Hook<CompiledPolicy> hook : hooks) {
            CompiledPolicy policy = hook.policy();
            AdmissionMatcher.Match match;
            try {
                match = matcher.matchResources(policy.spec().path("matchConstraints"), a);
            } catch (AdmissionMatcher.UnknownKind e) {
                configurationError(policy, null, e.error(), denials);
                continue;
            }
            if (match == null) {
                continue;
            }
            Map<String, Object> base = versions.computeIfAbsent(match,
                    m -> AdmissionVariables.of(VersionedAttributes.of(a, m, equivalents), namespaces, authorization));
            AuditAnnotations annotations = new AuditAnnotations();
            for (ObjectNode binding : hook.bindings()) {
                String bindingName = binding.path("metadata").path("name").asText();
                JsonNode bindingSpec = binding.path("spec");
                try {
                    if (!matcher.matchesResources(bindingSpec.path("matchResources"), a)) {
                        continue;
                    }
                } catch (AdmissionMatcher.UnknownKind e) {
                    configurationError(policy, bindingName, e.error(), denials);
                    continue;
                }
                List<ObjectNode> paramObjects;
                try {
                    paramObjects = params.collect(policy.spec().path("paramKind"), bindingSpec.path("paramRef"),
                            a.namespace());
                } catch (CompiledPolicy.PolicyException e) {
                    configurationError(policy, bindingName, e.getMessage(), denials);
                    continue;
                }
                for (ObjectNode param : paramObjects) {
                    evaluate(policy, bindingName, bindingSpec, param, base, a, denials, annotations);
                }
            }
            annotations.publish(policy.name(), a);
        }
        if (!denials.isEmpty()) {
            throw denied(a, denials);
        }
    }

    /**
     * kube's {@code addConfigError}: a policy or binding that cannot be applied to the request is
     * ignored under {@code failurePolicy: Ignore}, and otherwise denies it.
     */
    private static void configurationError(CompiledPolicy policy, String bindingName, String error,
                                           List<Denial> denials) {
        if (!policy.failOpen()) {
            denials.add(new Denial(policy.name(), bindingName, (bindingName == null ? "failed to configure policy: "
                    : "failed to configure binding: ") + error, ""));
        }
    }

    private void evaluate(CompiledPolicy policy, String bindingName, JsonNode bindingSpec, ObjectNode param,
                          Map<String, Object> base, AdmissionAttributes a, List<Denial> denials,
                          AuditAnnotations annotations) {
        Map<String, Object> vars = new HashMap<>(base);
        vars.put("params", CelValues.fromJson(param));
        try {
            if (!policy.conditionsHold(vars)) {
                return;
            }
        } catch (CompiledPolicy.PolicyException e) {
            if (!policy.failOpen()) {
                act(policy, bindingName, bindingSpec, 0, new CompiledPolicy.Decision(CompiledPolicy.Outcome.ERROR,
                        e.getMessage(), ""), a, denials);
            }
            return;
        }
        Map<String, String> variableErrors = policy.bindVariables(vars);
        List<CompiledPolicy.Decision> decisions = policy.validate(vars, variableErrors);
        for (int i = 0; i < decisions.size(); i++) {
            if (decisions.get(i).outcome() != CompiledPolicy.Outcome.ADMIT) {
                act(policy, bindingName, bindingSpec, i, decisions.get(i), a, denials);
            }
        }
        for (CompiledPolicy.AuditResult r : policy.auditAnnotations(vars, variableErrors)) {
            if (r.error() != null) {
                // an annotation that cannot be made denies, whatever the binding's actions, as kube's dispatcher does
                denials.add(new Denial(policy.name(), bindingName, r.error(), ""));
            } else {
                annotations.add(r.key(), r.value());
            }
        }
    }

    /** A failed validation (or an error under failurePolicy Fail), the {@code index}th, as the binding's actions say. */
    private static void act(CompiledPolicy policy, String bindingName, JsonNode bindingSpec, int index,
                            CompiledPolicy.Decision d, AdmissionAttributes a, List<Denial> denials) {
        for (JsonNode action : bindingSpec.path("validationActions")) {
            switch (action.asText()) {
                case "Deny" -> denials.add(new Denial(policy.name(), bindingName, d.message(), d.reason()));
                case "Warn" -> a.context().addWarning("Validation failed for ValidatingAdmissionPolicy '"
                        + policy.name() + "' with binding '" + bindingName + "': " + d.message());
                case "Audit" -> {
                    LOG.info("validation failed for ValidatingAdmissionPolicy '{}' with binding '{}' ({} {} {}): {}",
                            policy.name(), bindingName, a.operation(), a.resource(), a.name(), d.message());
                    a.context().addAuditAnnotation(AuditAnnotations.VALIDATION_FAILURE,
                            AuditAnnotations.validationFailure(d.message(), policy.name(), bindingName, index,
                                    bindingSpec.path("validationActions")));
                }
                default -> LOG.warn("binding '{}' has an unknown validation action '{}'", bindingName, action.asText());
            }
        }
    }

    /**
     * kube's denial: {@code admission.NewForbidden} with the first denial's message, its reason
     * (Invalid unless the validation names another) and that reason's code, each denial a cause.
     */
    static StatusException denied(AdmissionAttributes a, List<Denial> denials) {
        List<StatusCause> causes = new ArrayList<>();
        String first = null;
        for (Denial d : denials) {
            String message = d.binding() == null
                    ? "ValidatingAdmissionPolicy '" + d.policy() + "' denied request: " + d.message()
                    : "ValidatingAdmissionPolicy '" + d.policy() + "' with binding '" + d.binding()
                    + "' denied request: " + d.message();
            if (first == null) {
                first = message;
            }
            causes.add(new StatusCause("", message, ""));
        }
        Denial lead = denials.get(0);
        StatusReason reason = lead.reason().isEmpty() ? StatusReason.INVALID : StatusReason.fromWireName(lead.reason());
        GroupResource gr = a.resource().groupResource();
        String name = PolicySource.forbiddenName(a);
        StatusException forbidden = StatusException.forbidden(gr, name, first);
        return new StatusException(reason, reason.code(), forbidden.getMessage(),
                new StatusException.Details(name, gr.group(), gr.resource(), causes, 0), null);
    }
}
