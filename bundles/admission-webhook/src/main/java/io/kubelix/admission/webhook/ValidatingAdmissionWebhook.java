package io.kubelix.admission.webhook;

import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.EquivalentResourceMapper;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.metrics.MetricsRegistry;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.support.admission.config.AdmissionConfigurationFile;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The ValidatingAdmissionWebhook admission plugin (webhook/validating): the webhooks of every
 * {@code ValidatingWebhookConfiguration} that match the request, all called at once, as kube calls
 * them; the request goes on when each has allowed it (or failed with {@code failurePolicy: Ignore}).
 * When several refuse, the first in configuration order is the answer.
 */
@Component(service = ValidatingAdmissionPlugin.class)
public final class ValidatingAdmissionWebhook implements ValidatingAdmissionPlugin {
    static final String PLUGIN_NAME = "ValidatingAdmissionWebhook";
    static final GroupVersionResource CONFIGURATIONS = new GroupVersionResource("admissionregistration.k8s.io", "v1",
            "validatingwebhookconfigurations");

    private final WebhookPlugin webhooks;

    @Activate
    public ValidatingAdmissionWebhook(@Reference SharedInformerFactory informers, @Reference AuthorizationChain authorization,
                                     @Reference MetricsRegistry metrics, @Reference EquivalentResourceMapper equivalents,
                                     BundleContext context) {
        this(new WebhookPlugin(informers, CONFIGURATIONS, authorization, metrics, equivalents,
                WebhookAdmissionConfiguration.credentials(context.getProperty(AdmissionConfigurationFile.PROPERTY),
                        PLUGIN_NAME)));
    }

    ValidatingAdmissionWebhook(WebhookPlugin webhooks) {
        this.webhooks = webhooks;
    }

    @Override
    public String name() {
        return PLUGIN_NAME;
    }

    @Override
    public void validate(AdmissionAttributes a) {
        List<WebhookPlugin.Invocation> hooks = webhooks.hooksFor(a);
        if (hooks.isEmpty()) {
            return;
        }
        hooks.forEach(i -> WebhookPlugin.checkDryRun(i.hook(), a));
        List<CompletableFuture<WebhookPlugin.Outcome>> calls = new ArrayList<>();
        for (WebhookPlugin.Invocation i : hooks) {
            calls.add(webhooks.call(i.hook(), webhooks.versioned(i, a), false));
        }
        RuntimeException first = null;
        for (int i = 0; i < hooks.size(); i++) {
            try {
                webhooks.answer(hooks.get(i).hook(), a, WebhookPlugin.await(calls.get(i)));
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
