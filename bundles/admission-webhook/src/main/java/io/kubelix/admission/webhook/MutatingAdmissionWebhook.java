package io.kubelix.admission.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.JsonPatch;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.EquivalentResourceMapper;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.ReinvocationContext;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.metrics.MetricsRegistry;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.support.admission.VersionedAttributes;
import io.kubelix.support.admission.config.AdmissionConfigurationFile;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import java.util.HashSet;
import java.util.Set;

/**
 * The MutatingAdmissionWebhook admission plugin (webhook/mutating): the webhooks of every
 * {@code MutatingWebhookConfiguration} that match the request, one after the other (configurations
 * in name order), each given the object as the ones before left it. A webhook's JSON Patch is
 * applied to the object, which the resource's validation and the validating plugins then check
 * as any other. A webhook with {@code reinvocationPolicy: IfNeeded} is called once more when a
 * later plugin changed the object after it ran, as kube does.
 */
@Component(service = MutatingAdmissionPlugin.class)
public final class MutatingAdmissionWebhook implements MutatingAdmissionPlugin {
    static final String PLUGIN_NAME = "MutatingAdmissionWebhook";
    static final GroupVersionResource CONFIGURATIONS = new GroupVersionResource("admissionregistration.k8s.io", "v1",
            "mutatingwebhookconfigurations");

    private final WebhookPlugin webhooks;

    @Activate
    public MutatingAdmissionWebhook(@Reference SharedInformerFactory informers, @Reference AuthorizationChain authorization,
                                     @Reference MetricsRegistry metrics, @Reference EquivalentResourceMapper equivalents,
                                     BundleContext context) {
        this(new WebhookPlugin(informers, CONFIGURATIONS, authorization, metrics, equivalents,
                WebhookAdmissionConfiguration.credentials(context.getProperty(AdmissionConfigurationFile.PROPERTY),
                        PLUGIN_NAME)));
    }

    MutatingAdmissionWebhook(WebhookPlugin webhooks) {
        this.webhooks = webhooks;
    }

    @Override
    public String name() {
        return PLUGIN_NAME;
    }

    /** kube's {@code webhookReinvokeContext}: what this plugin remembers of a request between passes. */
    private static final class Reinvocation {
        JsonNode lastOutput;
        Set<String> previouslyInvokedReinvocable = new HashSet<>();
        final Set<String> reinvoke = new HashSet<>();

        void requireReinvokingPreviouslyInvoked() {
            reinvoke.addAll(previouslyInvokedReinvocable);
            previouslyInvokedReinvocable = new HashSet<>();
        }
    }

    @Override
    public void admit(AdmissionAttributes a) {
        ReinvocationContext context = a.reinvocation();
        Reinvocation state = (Reinvocation) context.value(PLUGIN_NAME);
        if (state == null) {
            state = new Reinvocation();
            context.setValue(PLUGIN_NAME, state);
        }
        // In-process plugins changed the object on their second pass: every reinvocable webhook is due again.
        if (context.isReinvoke() && a.object() != null && !a.object().equals(state.lastOutput)) {
            state.requireReinvokingPreviouslyInvoked();
        }
        try {
            for (WebhookPlugin.Invocation invocation : webhooks.hooksFor(a)) {
                Webhook hook = invocation.hook();
                if (context.isReinvoke() && !state.reinvoke.contains(hook.uid())) {
                    continue;
                }
                WebhookPlugin.checkDryRun(hook, a);
                VersionedAttributes v = webhooks.versioned(invocation, a);
                AdmissionReviews.Response r = webhooks.answer(hook, a,
                        WebhookPlugin.await(webhooks.call(hook, v, true)));
                if (r != null && r.patch() != null && apply(hook, v, r.patch())) {
                    state.requireReinvokingPreviouslyInvoked();
                    context.setShouldReinvoke();
                }
                if (hook.reinvokedIfNeeded()) {
                    state.previouslyInvokedReinvocable.add(hook.uid());
                }
            }
        } finally {
            state.lastOutput = a.object() == null ? null : a.object().deepCopy();
        }
    }

    /**
     * Applies the webhook's patch to the object in the version it was sent, and carries the result
     * into the request's object (converted back to the request's version); whether it changed it.
     */
    private boolean apply(Webhook hook, VersionedAttributes v, JsonNode patch) {
        if (patch.isArray() && patch.isEmpty()) {
            return false;
        }
        ObjectNode obj = v.object();
        if (obj == null) {
            throw StatusException.internalError("admission webhook \"" + hook.name()
                    + "\" attempted to modify the object, which is not supported for this operation", null);
        }
        JsonNode patched;
        try {
            patched = JsonPatch.apply(patch, obj);
        } catch (RuntimeException e) {
            throw StatusException.internalError(e.getMessage(), e);
        }
        if (!(patched instanceof ObjectNode p) || p.equals(obj)) {
            return false;
        }
        webhooks.applyMutation(v, p);
        return true;
    }
}
