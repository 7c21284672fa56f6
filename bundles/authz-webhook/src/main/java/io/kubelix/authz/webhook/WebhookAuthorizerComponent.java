package io.kubelix.authz.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubelix.api.authz.Authorizer;
import io.kubelix.support.time.GoDuration;
import io.kubelix.support.webhook.CABundleTrust;
import io.kubelix.support.webhook.WebhookKubeconfig;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.http.HttpClient;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.Map;

/**
 * Registers the webhook authorizer ({@code Webhook} mode) when
 * {@code --authorization-webhook-config-file} names its service; without it the mode has no
 * authorizer, which {@code /readyz} reports when the mode is configured. Settings come from the
 * configuration {@code io.kubelix.authz.webhook}, else the framework properties {@code bin/kubelix}
 * sets from kube-apiserver's flags: {@code authorization-webhook-config-file},
 * {@code authorization-webhook-cache-authorized-ttl} (5m) and
 * {@code authorization-webhook-cache-unauthorized-ttl} (30s).
 */
@Component(immediate = true, service = {}, configurationPid = WebhookAuthorizerComponent.PID,
        configurationPolicy = ConfigurationPolicy.OPTIONAL)
public final class WebhookAuthorizerComponent {
    static final String PID = "io.kubelix.authz.webhook";
    private static final Logger LOG = LoggerFactory.getLogger(WebhookAuthorizerComponent.class);

    private final ServiceRegistration<Authorizer> registration;

    @Activate
    public WebhookAuthorizerComponent(Map<String, Object> config, BundleContext context) throws GeneralSecurityException {
        String file = setting(config, context, "authorization-webhook-config-file", "");
        if (file.isEmpty()) {
            LOG.info("no authorization-webhook-config-file: the Webhook authorization mode has no authorizer");
            registration = null;
            return;
        }
        Duration allowed = GoDuration.parseFlag("--authorization-webhook-cache-authorized-ttl",
                setting(config, context, "authorization-webhook-cache-authorized-ttl", "5m"));
        Duration unauthorized = GoDuration.parseFlag("--authorization-webhook-cache-unauthorized-ttl",
                setting(config, context, "authorization-webhook-cache-unauthorized-ttl", "30s"));
        WebhookKubeconfig target = WebhookKubeconfig.read(Path.of(file), new ObjectMapper(new YAMLFactory()),
                "authorization webhook config file");
        HttpClient.Builder client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
                .sslContext(CABundleTrust.sslContext(target.caPem(), target.server().getHost().replaceAll("^\\[|]$", "")));
        WebhookAuthorizer authorizer = new WebhookAuthorizer(target, client.build(), new ObjectMapper(), allowed,
                unauthorized, System::nanoTime);
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Authorizer.MODE, "Webhook");
        registration = context.registerService(Authorizer.class, authorizer, properties);
        LOG.info("webhook authorizer: SubjectAccessReviews to {} (cached {} when allowed, {} otherwise)",
                target.server(), allowed, unauthorized);
    }

    @Deactivate
    void deactivate() {
        if (registration != null) {
            registration.unregister();
        }
    }

    private static String setting(Map<String, Object> config, BundleContext context, String name, String dflt) {
        Object v = config.get(name);
        if (v != null && !v.toString().isBlank()) {
            return v.toString().trim();
        }
        String p = context.getProperty("kubelix." + name);
        return p == null || p.isBlank() ? dflt : p.trim();
    }
}
