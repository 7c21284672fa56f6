package io.kubelix.resource.core.certificates;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.informer.Workers;
import io.kubelix.api.object.Unstructured;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.resource.core.namespace.NamespacePhase;
import io.kubelix.resource.core.namespace.NamespacedObjectEvents;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.Supplier;

/**
 * kube-controller-manager's root CA certificate publisher, run by this plugin: every namespace that
 * is not terminating holds the ConfigMap {@code kube-root-ca.crt} whose {@code ca.crt} is the CA
 * clients trust for the server's certificate, with kube's {@code kubernetes.io/description}. Pods
 * read it through the ServiceAccount plugin's projected volume, so it is created again when
 * deleted and its data put back when someone changes it, as kube's does.
 *
 * <p>Driven by the shared informers: a namespace added or updated while active, or the ConfigMap
 * changed or deleted, queues the namespace; a worker writes what differs through this plugin's
 * Store, retrying a failure with the queue's back-off.
 */
public final class RootCACertPublisher {
    public static final String NAME = "kube-root-ca.crt";
    static final String KEY = "ca.crt";
    static final String DESCRIPTION_ANNOTATION = "kubernetes.io/description";
    static final String DESCRIPTION = "Contains a CA bundle that can be used to verify the kube-apiserver when using"
            + " internal endpoints such as the internal service IP or kubernetes.default.svc. No other usage is"
            + " guaranteed across distributions of Kubernetes clusters.";
    static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    static final GroupVersionResource CONFIGMAPS = new GroupVersionResource("", "v1", "configmaps");
    private static final String MANAGER = "root-ca-cert-publisher";

    private static final Logger LOG = LoggerFactory.getLogger(RootCACertPublisher.class);

    private final StandardStorage configMaps;
    private final Supplier<String> rootCA;
    private final SharedIndexInformer namespaceInformer;
    private final SharedIndexInformer configMapInformer;
    private final SharedInformerFactory informers;
    private final RateLimitingQueue<String> queue;
    private Workers workers;
    private List<ResourceEventHandlerRegistration> registrations = List.of();

    /**
     * @param rootCA the PEM bundle to publish, read at each sync; null when there is none, in which
     *               case nothing is written
     */
    public RootCACertPublisher(StandardStorage configMaps, Supplier<String> rootCA, SharedInformerFactory informers) {
        this.configMaps = configMaps;
        this.rootCA = rootCA;
        this.informers = informers;
        this.namespaceInformer = informers.forResource(NAMESPACES);
        this.configMapInformer = informers.forResource(CONFIGMAPS);
        this.queue = informers.newRateLimitingQueue("root_ca_cert_publisher");
    }

    public synchronized void start() {
        registrations = List.of(
                namespaceInformer.addEventHandler(NamespacedObjectEvents.namespaces(queue,
                        ns -> "Active".equals(ns.path("status").path("phase").asText("Active")))),
                configMapInformer.addEventHandler(NamespacedObjectEvents.objectNamed(queue, NAME, true)));
        workers = informers.runWorkers("root-ca-cert-publisher", queue, 1, this::sync);
    }

    /** Removes the handlers, lets the worker finish what is queued, and ends it. */
    public synchronized void stop() {
        registrations.forEach(ResourceEventHandlerRegistration::close);
        if (workers != null) {
            workers.stop();
        }
    }

    /** Creates or mends the namespace's {@code kube-root-ca.crt}; true when it wrote something. */
    boolean sync(String namespace) {
        String ca = rootCA.get();
        ObjectNode ns = namespaceInformer.lister().get(namespace).orElse(null);
        if (ca == null || ns == null || NamespacePhase.terminating(ns)) {
            return false;
        }
        ObjectNode current = configMapInformer.lister().byNamespace(namespace).get(NAME).orElse(null);
        RequestContext ctx = RequestContext.system(namespace);
        try {
            if (current == null) {
                Unstructured cm = Unstructured.of("v1", "ConfigMap");
                cm.metadata().name(NAME);
                published(cm.object(), ca);
                configMaps.create(ctx, cm.object(), CreateOptions.DEFAULT);
                LOG.info("created config map {}/{}", namespace, NAME);
                return true;
            }
            if (upToDate(current, ca)) {
                return false;
            }
            configMaps.update(ctx, NAME, (c, old) -> {
                if (old == null) {
                    throw StatusException.notFound(CONFIGMAPS.groupResource(), NAME);
                }
                return published(old.deepCopy(), ca);
            }, new UpdateOptions(false, MANAGER));
            LOG.info("restored config map {}/{}", namespace, NAME);
            return true;
        } catch (StatusException e) {
            if (!NamespacedObjectEvents.moot(e)) {
                throw e;
            }
            return false;
        }
    }

    /**
     * kube's test: the data is only {@code ca.crt}, and the description annotation is not empty;
     * and {@code ca.crt} holds every certificate of this server's CA bundle. Servers sharing one
     * storage may each have their own CA, as each writes only what the bundle lacks, they add
     * their CAs to it in turn instead of replacing each other's forever, and a pod then trusts
     * whichever server answers it (as kube's cluster authentication trust controller combines
     * the client CAs of its servers).
     */
    static boolean upToDate(ObjectNode configMap, String ca) {
        JsonNode data = configMap.path("data");
        return data.size() == 1 && data.path(KEY).isTextual()
                && certificates(data.path(KEY).asText()).containsAll(certificates(ca))
                && !configMap.path("metadata").path("annotations").path(DESCRIPTION_ANNOTATION).asText("").isEmpty();
    }

    /**
     * The config map with kube's data and description: this server's CA bundle, then the other
     * certificates {@code ca.crt} held (other servers' CAs; anything that is not a PEM certificate
     * is dropped); other annotations and labels are kept.
     */
    static ObjectNode published(ObjectNode configMap, String ca) {
        java.util.LinkedHashSet<String> bundle = new java.util.LinkedHashSet<>(certificates(ca));
        bundle.addAll(certificates(configMap.path("data").path(KEY).asText("")));
        configMap.putObject("data").put(KEY, bundle.isEmpty() ? ca : String.join("", bundle));
        ((ObjectNode) configMap.with("metadata")).with("annotations").put(DESCRIPTION_ANNOTATION, DESCRIPTION);
        return configMap;
    }

    private static final java.util.regex.Pattern PEM_CERTIFICATE = java.util.regex.Pattern.compile(
            "-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\\s]+)-----END CERTIFICATE-----");

    /** The PEM certificates of a bundle, each re-wrapped at 64 characters, in order. */
    static List<String> certificates(String pem) {
        List<String> out = new java.util.ArrayList<>();
        java.util.regex.Matcher m = PEM_CERTIFICATE.matcher(pem);
        while (m.find()) {
            String base64 = m.group(1).replaceAll("\\s", "");
            StringBuilder b = new StringBuilder("-----BEGIN CERTIFICATE-----\n");
            for (int i = 0; i < base64.length(); i += 64) {
                b.append(base64, i, Math.min(base64.length(), i + 64)).append('\n');
            }
            out.add(b.append("-----END CERTIFICATE-----\n").toString());
        }
        return out;
    }
}
