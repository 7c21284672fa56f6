package io.kubelix.authz.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.kubelix.api.authz.Authorizer;
import io.kubelix.support.flags.ReloadingFile;
import io.kubelix.support.time.GoDuration;
import io.kubelix.support.webhook.CABundleTrust;
import io.kubelix.support.webhook.WebhookKubeconfig;
import io.kubelix.support.webhook.x509.ClientCertificate;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.ConfigurationPolicy;
import org.osgi.service.component.annotations.Deactivate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Dictionary;
import java.util.Hashtable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Registers the webhook authorizers ({@code Webhook} mode). With {@code --authorization-config},
 * one per {@code type: Webhook} entry of the AuthorizationConfiguration, each under its entry's name
 * ({@link Authorizer#NAME}); the file is checked every second and, when it changed and is valid, the
 * webhooks are replaced (a malformed file is logged and the running webhooks kept, as kube does).
 * Otherwise one, when {@code --authorization-webhook-config-file} names its service; without either
 * the mode has no authorizer, which {@code /readyz} reports when the mode is configured. Settings
 * come from the configuration {@code io.kubelix.authz.webhook}, else the framework properties
 * {@code bin/kubelix} sets from kube-apiserver's flags: {@code authorization-config},
 * {@code authorization-webhook-config-file}, {@code authorization-webhook-cache-authorized-ttl} (5m)
 * and {@code authorization-webhook-cache-unauthorized-ttl} (30s).
 */
@Component(immediate = true, service = {}, configurationPid = WebhookAuthorizerComponent.PID,
        configurationPolicy = ConfigurationPolicy.OPTIONAL)
public final class WebhookAuthorizerComponent {
    static final String PID = "io.kubelix.authz.webhook";
    private static final Logger LOG = LoggerFactory.getLogger(WebhookAuthorizerComponent.class);
    private static final Path SERVICE_ACCOUNT_DIR = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

    private final BundleContext context;
    private final ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    private final ObjectMapper json = new ObjectMapper();
    /** The registered webhooks; replaced whole by the reload thread. */
    private volatile List<ServiceRegistration<Authorizer>> registrations = List.of();
    private ScheduledExecutorService reloader;
    private ReloadingFile<List<AuthorizationConfiguration.Webhook>> configFile;
    private List<AuthorizationConfiguration.Webhook> registered;

    @Activate
    public WebhookAuthorizerComponent(Map<String, Object> config, BundleContext context) throws GeneralSecurityException {
        this.context = context;
        String authorizationConfig = setting(config, context, "authorization-config", "");
        if (!authorizationConfig.isEmpty()) {
            watch(Path.of(authorizationConfig).toAbsolutePath());
            return;
        }
        String file = setting(config, context, "authorization-webhook-config-file", "");
        if (file.isEmpty()) {
            LOG.info("no authorization-webhook-config-file: the Webhook authorization mode has no authorizer");
            return;
        }
        Duration allowed = GoDuration.parseFlag("--authorization-webhook-cache-authorized-ttl",
                setting(config, context, "authorization-webhook-cache-authorized-ttl", "5m"));
        Duration unauthorized = GoDuration.parseFlag("--authorization-webhook-cache-unauthorized-ttl",
                setting(config, context, "authorization-webhook-cache-unauthorized-ttl", "30s"));
        WebhookKubeconfig target = WebhookKubeconfig.read(Path.of(file), yaml, "authorization webhook config file");
        WebhookAuthorizer.Settings settings = WebhookAuthorizer.Settings.legacy(allowed, unauthorized);
        // Registered without a name: it serves the entry --authorization-mode=Webhook makes.
        registrations = List.of(context.registerService(Authorizer.class, authorizer(target, settings),
                properties(null)));
        LOG.info("webhook authorizer: SubjectAccessReviews to {} (cached {} when allowed, {} otherwise)",
                target.server(), allowed, unauthorized);
    }

    /**
     * Registers the webhooks of the file, refusing to start when it is malformed as kube-apiserver
     * does, then checks it every second.
     */
    private void watch(Path file) throws GeneralSecurityException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("authorization-config: cannot read " + file + ": " + e.getMessage(), e);
        }
        List<AuthorizationConfiguration.Webhook> initial;
        try {
            initial = parse(text);
        } catch (IllegalArgumentException e) {
            // One line with kube's message; /readyz names the webhooks left without an authorizer.
            LOG.error("authorization-config {} is refused: {}", file, e.getMessage());
            throw e;
        }
        configFile = new ReloadingFile<>("Authorization configuration (webhooks)", file, Duration.ofSeconds(1),
                System::nanoTime, null, this::parse, w -> w == null ? "no webhooks"
                : w.size() + " webhook(s) " + w.stream().map(AuthorizationConfiguration.Webhook::name).toList());
        List<AuthorizationConfiguration.Webhook> current = configFile.current();
        register(current == null ? initial : current);
        reloader = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kubelix-authz-webhook-reload");
            t.setDaemon(true);
            return t;
        });
        reloader.scheduleWithFixedDelay(this::reload, 1, 1, TimeUnit.SECONDS);
    }

    private List<AuthorizationConfiguration.Webhook> parse(String text) {
        return AuthorizationConfiguration.parse(text, yaml,
                () -> AuthorizationConfiguration.inCluster(System.getenv(), SERVICE_ACCOUNT_DIR));
    }

    /** Swaps the webhooks when the file changed and is valid; a removed file keeps them. */
    private void reload() {
        try {
            List<AuthorizationConfiguration.Webhook> current = configFile.current();
            if (current != null && current != registered) {
                register(current);
            }
        } catch (Exception e) {
            LOG.error("authorization-config {}: the new webhooks cannot be set up, the running ones are kept: {}",
                    configFile.path(), e.toString());
        }
    }

    /** Registers the new webhooks before withdrawing the old, so no request finds neither. */
    private void register(List<AuthorizationConfiguration.Webhook> webhooks) throws GeneralSecurityException {
        List<Authorizer> built = new ArrayList<>();
        for (AuthorizationConfiguration.Webhook w : webhooks) {
            built.add(authorizer(w.target(), w.settings()));
        }
        List<ServiceRegistration<Authorizer>> added = new ArrayList<>();
        for (int i = 0; i < webhooks.size(); i++) {
            AuthorizationConfiguration.Webhook w = webhooks.get(i);
            added.add(context.registerService(Authorizer.class, built.get(i), properties(w.name())));
            LOG.info("webhook authorizer {}: SubjectAccessReviews {} to {} (timeout {} ms, failure policy {}{})",
                    w.name(), w.settings().version(), w.target().server(), w.settings().timeout().toMillis(),
                    w.settings().denyOnFailure() ? "Deny" : "NoOpinion",
                    w.settings().matchConditions().isEmpty() ? "" : ", when its match conditions hold");
        }
        List<ServiceRegistration<Authorizer>> old = registrations;
        registrations = List.copyOf(added);
        registered = webhooks;
        unregister(old);
    }

    private WebhookAuthorizer authorizer(WebhookKubeconfig target, WebhookAuthorizer.Settings settings)
            throws GeneralSecurityException {
        String host = target.server().getHost().replaceAll("^\\[|]$", "");
        HttpClient client = HttpClient.newBuilder()
                .connectTimeout(settings.timeout().compareTo(Duration.ofSeconds(10)) < 0 ? settings.timeout()
                        : Duration.ofSeconds(10))
                .sslContext(CABundleTrust.sslContext(target.caPem(), host, target.clientCertPem() == null ? null
                        : ClientCertificate.keyManagers(target.clientCertPem(), target.clientKeyPem())))
                .build();
        return new WebhookAuthorizer(target, client, json, settings, System::nanoTime);
    }

    private static Dictionary<String, Object> properties(String name) {
        Dictionary<String, Object> properties = new Hashtable<>();
        properties.put(Authorizer.MODE, "Webhook");
        if (name != null) {
            properties.put(Authorizer.NAME, name);
        }
        return properties;
    }

    @Deactivate
    void deactivate() {
        if (reloader != null) {
            reloader.shutdownNow();
            try {
                // A reload under way finishes before its registrations are withdrawn.
                reloader.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        unregister(registrations);
    }

    private static void unregister(List<ServiceRegistration<Authorizer>> registrations) {
        for (ServiceRegistration<Authorizer> r : registrations) {
            try {
                r.unregister();
            } catch (IllegalStateException e) {
                // Already gone with the bundle.
            }
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
