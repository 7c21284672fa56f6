package io.kubelix.admission.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.EquivalentResourceMapper;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ReinvocationContext;
import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.errors.StatusCause;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.schema.SchemaResolver;
import io.kubelix.api.schema.StructuredMergeDiff;
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
 * The MutatingAdmissionPolicy admission plugin (kube's {@code plugin/policy/mutating}): every
 * {@code MutatingAdmissionPolicy} of {@code admissionregistration.k8s.io/v1beta1} whose
 * {@code matchConstraints} match a create or update runs, policies in name order, once for each of
 * its bindings that matches too and each param the binding selects; its match conditions hold or it
 * is skipped, and its mutations change the object in order: an {@code ApplyConfiguration} is merged
 * as server-side apply merges ({@link ApplyConfigurationPatcher}), a {@code JSONPatch} applied
 * ({@link JsonPatcher}). kube runs the plugin among the mutating plugins, before the mutating
 * webhooks; the resource's strategy and the validating plugins then check the result as any object.
 * A policy with {@code reinvocationPolicy: IfNeeded} runs again when a later mutation changed the
 * object. A mutation that fails is an error under the policy's {@code failurePolicy}: ignored, or
 * refusing the request with kube's message.
 */
@Component(service = MutatingAdmissionPlugin.class)
public final class MutatingAdmissionPolicyPlugin implements MutatingAdmissionPlugin {
    private static final Logger LOG = LoggerFactory.getLogger(MutatingAdmissionPolicyPlugin.class);
    static final String PLUGIN_NAME = "MutatingAdmissionPolicy";
    static final GroupVersionResource POLICIES = new GroupVersionResource("admissionregistration.k8s.io", "v1beta1",
            "mutatingadmissionpolicies");
    static final GroupVersionResource BINDINGS = new GroupVersionResource("admissionregistration.k8s.io", "v1beta1",
            "mutatingadmissionpolicybindings");

    private final PolicySource<CompiledMutatingPolicy> source;
    private final SharedIndexInformer namespaces;
    private final AdmissionMatcher matcher;
    private final PolicyParams params;
    private final EquivalentResourceMapper equivalents;
    private final AuthorizationChain authorization;
    private final SchemaResolver schemas;
    private final StructuredMergeDiff smd;

    /** A mutation that failed (or a binding that could not be configured), refusing the request unless its policy ignores failures. */
    private record PolicyError(CompiledMutatingPolicy policy, String binding, String message) {
    }

    @Activate
    public MutatingAdmissionPolicyPlugin(@Reference SharedInformerFactory informers,
                                         @Reference AuthorizationChain authorization,
                                         @Reference EquivalentResourceMapper equivalents,
                                         @Reference SchemaResolver schemas,
                                         @Reference StructuredMergeDiff smd) {
        this.authorization = authorization;
        this.equivalents = equivalents;
        this.schemas = schemas;
        this.smd = smd;
        this.source = new PolicySource<>(informers.forResource(POLICIES), informers.forResource(BINDINGS),
                CompiledMutatingPolicy::new);
        this.namespaces = informers.forResource(ValidatingAdmissionPolicyPlugin.NAMESPACES);
        this.matcher = new AdmissionMatcher(name -> namespaces.lister().get(name).orElse(null), equivalents);
        this.params = new PolicyParams(informers);
    }

    @Override
    public String name() {
        return PLUGIN_NAME;
    }

    /** Only creates and updates have an object to mutate; a policy cannot match anything else. */
    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE || operation == Operation.UPDATE;
    }

    @Override
    public void admit(AdmissionAttributes a) {
        if (AdmissionMatcher.exempt(a) || a.object() == null) {
            return;
        }
        List<PolicySource.Hook<CompiledMutatingPolicy>> hooks = source.hooks(a);
        if (hooks.isEmpty()) {
            return;
        }
        ReinvocationContext context = a.reinvocation();
        PolicyReinvocation state = (PolicyReinvocation) context.value(PLUGIN_NAME);
        if (state == null) {
            state = new PolicyReinvocation();
            context.setValue(PLUGIN_NAME, state);
        }
        // the in-process plugins changed the object on their second pass: every reinvocable policy is due again
        if (context.isReinvoke() && state.outputChangedSinceLastInvocation(a.object())) {
            state.requireReinvokingPreviouslyInvoked();
        }
        List<PolicyError> errors = new ArrayList<>();
        try {
            for (PolicySource.Hook<CompiledMutatingPolicy> hook : hooks) {
                dispatch(hook, a, state, errors);
            }
        } finally {
            state.setLastOutput(a.object());
        }
        List<PolicyError> failing = errors.stream().filter(e -> !e.policy().common().failOpen()).toList();
        errors.stream().filter(e -> e.policy().common().failOpen()).forEach(e ->
                LOG.info("ignored failure of MutatingAdmissionPolicy '{}' with binding '{}' ({} {} {}): {}",
                        e.policy().name(), e.binding(), a.operation(), a.resource(), a.name(), e.message()));
        if (!failing.isEmpty()) {
            throw denied(a, failing);
        }
    }

    /** One policy: each binding that matches, with each of its params. */
    private void dispatch(PolicySource.Hook<CompiledMutatingPolicy> hook, AdmissionAttributes a, PolicyReinvocation state,
                          List<PolicyError> errors) {
        CompiledMutatingPolicy policy = hook.policy();
        JsonNode spec = policy.common().spec();
        AdmissionMatcher.Match match = matcher.matchResources(spec.path("matchConstraints"), a);
        if (match == null) {
            return;
        }
        for (ObjectNode binding : hook.bindings()) {
            String bindingName = binding.path("metadata").path("name").asText();
            JsonNode bindingSpec = binding.path("spec");
            if (!matcher.matchesResources(bindingSpec.path("matchResources"), a)) {
                continue;
            }
            List<ObjectNode> paramObjects;
            try {
                paramObjects = params.collect(spec.path("paramKind"), bindingSpec.path("paramRef"), a.namespace());
            } catch (CompiledPolicy.PolicyException e) {
                errors.add(new PolicyError(policy, bindingName, e.getMessage()));
                continue;
            }
            for (ObjectNode param : paramObjects) {
                invoke(policy, bindingName, param, match, a, state, errors);
            }
        }
    }

    /** One invocation: the match conditions, then each mutation in order on the object as the one before left it. */
    private void invoke(CompiledMutatingPolicy policy, String bindingName, ObjectNode param, AdmissionMatcher.Match match,
                        AdmissionAttributes a, PolicyReinvocation state, List<PolicyError> errors) {
        PolicyReinvocation.Key key = new PolicyReinvocation.Key(policy.name(), bindingName,
                param == null ? "" : param.path("metadata").path("namespace").asText(""),
                param == null ? "" : param.path("metadata").path("name").asText(""));
        VersionedAttributes v = VersionedAttributes.of(a, match, equivalents);
        Map<String, Object> vars = variables(v, param);
        try {
            if (!policy.common().conditionsHold(vars)) {
                return;
            }
        } catch (CompiledPolicy.PolicyException e) {
            errors.add(new PolicyError(policy, bindingName, e.getMessage()));
            return;
        }
        if (a.reinvocation().isReinvoke() && !state.shouldReinvoke(key)) {
            return;
        }
        policy.common().bindVariables(vars);
        ObjectNode before = v.object().deepCopy();
        var schema = schemas.resolveSchema(match.kind());
        for (CompiledMutatingPolicy.Mutation m : policy.mutations()) {
            try {
                ObjectNode mutated = CompiledMutatingPolicy.apply(m, vars, v.object(), smd, schema);
                if (!mutated.equals(v.object())) {
                    v.applyTo(mutated, equivalents);
                    // what the next mutation sees: the object as this one left it
                    v = VersionedAttributes.of(a, match, equivalents);
                    vars = variables(v, param);
                    policy.common().bindVariables(vars);
                }
            } catch (CompiledPolicy.PolicyException e) {
                errors.add(new PolicyError(policy, bindingName, e.getMessage()));
            }
        }
        if (!before.equals(v.object())) {
            state.requireReinvokingPreviouslyInvoked();
            a.reinvocation().setShouldReinvoke();
        }
        if (policy.reinvokeIfNeeded()) {
            state.addReinvocable(key);
        }
    }

    /** The request's variables with a binding's param; the policy's own {@code variables} are bound after its match conditions. */
    private Map<String, Object> variables(VersionedAttributes v, ObjectNode param) {
        Map<String, Object> vars = new HashMap<>(AdmissionVariables.of(v, namespaces, authorization));
        vars.put("params", CelValues.fromJson(param));
        return vars;
    }

    /**
     * kube's refusal by its generic policy dispatcher: {@code admission.NewForbidden}'s status (403,
     * with the object's details) whose message is the first error's and reason {@code Invalid}, each
     * error a cause.
     */
    static StatusException denied(AdmissionAttributes a, List<PolicyError> errors) {
        List<StatusCause> causes = new ArrayList<>();
        for (PolicyError e : errors) {
            String message = e.binding() == null
                    ? "policy \"" + e.policy().name() + "\" denied request: " + e.message()
                    : "policy '" + e.policy().name() + "' with binding '" + e.binding() + "' denied request: " + e.message();
            causes.add(new StatusCause("", message, ""));
        }
        GroupResource gr = a.resource().groupResource();
        String name = PolicySource.forbiddenName(a);
        return new StatusException(StatusReason.INVALID, 403, causes.get(0).message(),
                new StatusException.Details(name, gr.group(), gr.resource(), causes, 0), null);
    }
}
