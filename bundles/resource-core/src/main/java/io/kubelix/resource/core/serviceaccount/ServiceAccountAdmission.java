package io.kubelix.resource.core.serviceaccount;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.support.admission.guard.ObjectWrites;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import java.security.SecureRandom;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The ServiceAccount admission plugin (plugin/pkg/admission/serviceaccount) for new pods: a pod
 * naming no service account runs as {@code default}; the service account must exist (the
 * {@code default} one is waited for a moment, as the service account controller may not have made
 * it yet), else kube's 403; and unless the pod or its service account sets
 * {@code automountServiceAccountToken: false}, the pod gets kube's projected
 * {@code kube-api-access-<suffix>} volume (a bound service account token, {@code kube-root-ca.crt}'s
 * {@code ca.crt} and the namespace), mounted read-only at
 * {@code /var/run/secrets/kubernetes.io/serviceaccount} in every container and init container that
 * mounts nothing there. Mirror pods (kubelet's static pods) are left alone.
 */
// The name from before the package split: a plugin update swaps a component for the one of the same name.
@Component(name = "io.kubelix.resource.core.ServiceAccountAdmission", service = MutatingAdmissionPlugin.class)
public final class ServiceAccountAdmission implements MutatingAdmissionPlugin {
    static final String PLUGIN_NAME = "ServiceAccount";
    static final String DEFAULT = "default";
    static final String VOLUME_PREFIX = "kube-api-access-";
    static final String MOUNT_PATH = "/var/run/secrets/kubernetes.io/serviceaccount";
    static final String MIRROR_POD = "kubernetes.io/config.mirror";
    /** kube's WarnOnlyBoundTokenExpirationSeconds: an hour and 7 seconds. */
    static final int TOKEN_EXPIRATION_SECONDS = 3607;
    /** How often, and how far apart, the {@code default} service account is looked for. */
    private static final int DEFAULT_ATTEMPTS = 10;
    private static final long RETRY_MILLIS = 150;
    /** names.SimpleNameGenerator's alphabet: no vowels, no look-alikes. */
    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A service account of a namespace, as the informer has it. */
    private final BiFunction<String, String, Optional<ObjectNode>> serviceAccounts;
    private final long retryMillis;

    @Activate
    public ServiceAccountAdmission(@Reference SharedInformerFactory informers) {
        this((namespace, name) -> informers.forResource(DefaultServiceAccounts.SERVICE_ACCOUNTS).lister()
                .byNamespace(namespace).get(name), RETRY_MILLIS);
    }

    ServiceAccountAdmission(BiFunction<String, String, Optional<ObjectNode>> serviceAccounts, long retryMillis) {
        this.serviceAccounts = serviceAccounts;
        this.retryMillis = retryMillis;
    }

    @Override
    public String name() {
        return PLUGIN_NAME;
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE;
    }

    @Override
    public void admit(AdmissionAttributes a) {
        if (!ObjectWrites.of(a, "", "pods") || a.object().path("metadata").path("annotations").has(MIRROR_POD)) {
            return;
        }
        ObjectNode spec = a.object().with("spec");
        String name = spec.path("serviceAccountName").asText("");
        if (name.isEmpty()) {
            name = spec.path("serviceAccount").asText("");
        }
        if (name.isEmpty()) {
            name = DEFAULT;
            spec.put("serviceAccountName", DEFAULT);
        }
        ObjectNode account = lookUp(a, name);
        if (automount(spec, account)) {
            mountToken(spec);
        }
    }

    /** The service account, or kube's 403 naming it. */
    private ObjectNode lookUp(AdmissionAttributes a, String name) {
        int attempts = DEFAULT.equals(name) ? DEFAULT_ATTEMPTS : 1;
        for (int i = 0; i < attempts; i++) {
            if (i > 0) {
                try {
                    Thread.sleep(retryMillis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            Optional<ObjectNode> account = serviceAccounts.apply(a.namespace(), name);
            if (account.isPresent()) {
                return account.get();
            }
        }
        throw StatusException.forbidden(a.resource().groupResource(), a.name(), "error looking up service account "
                + a.namespace() + "/" + name + ": serviceaccount \"" + name + "\" not found");
    }

    /** The pod's {@code automountServiceAccountToken}, else its service account's, else true. */
    private static boolean automount(JsonNode spec, JsonNode account) {
        if (spec.path("automountServiceAccountToken").isBoolean()) {
            return spec.path("automountServiceAccountToken").asBoolean();
        }
        return !account.path("automountServiceAccountToken").isBoolean()
                || account.path("automountServiceAccountToken").asBoolean();
    }

    /** mountServiceAccountToken: the projected volume, mounted where nothing else is. */
    private static void mountToken(ObjectNode spec) {
        String volume = null;
        for (JsonNode v : spec.path("volumes")) {
            if (v.path("name").asText("").startsWith(VOLUME_PREFIX)) {
                volume = v.path("name").asText();
                break;
            }
        }
        boolean hasVolume = volume != null;
        if (volume == null) {
            StringBuilder n = new StringBuilder(VOLUME_PREFIX);
            for (int i = 0; i < 5; i++) {
                n.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
            }
            volume = n.toString();
        }
        boolean needed = mount(spec.path("initContainers"), volume) | mount(spec.path("containers"), volume);
        if (!hasVolume && needed) {
            spec.withArray("volumes").add(tokenVolume(volume));
        }
    }

    private static boolean mount(JsonNode containers, String volume) {
        boolean mounted = false;
        for (JsonNode c : containers) {
            if (!(c instanceof ObjectNode container)) {
                continue;
            }
            boolean taken = false;
            for (JsonNode m : container.path("volumeMounts")) {
                if (MOUNT_PATH.equals(m.path("mountPath").asText())) {
                    taken = true;
                    break;
                }
            }
            if (!taken) {
                container.withArray("volumeMounts").addObject().put("name", volume).put("readOnly", true)
                        .put("mountPath", MOUNT_PATH);
                mounted = true;
            }
        }
        return mounted;
    }

    /** TokenVolumeSource: kube's projected token, CA and namespace. */
    private static ObjectNode tokenVolume(String name) {
        ObjectNode v = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        v.put("name", name);
        ObjectNode projected = v.putObject("projected");
        ArrayNode sources = projected.putArray("sources");
        sources.addObject().putObject("serviceAccountToken").put("expirationSeconds", TOKEN_EXPIRATION_SECONDS)
                .put("path", "token");
        ObjectNode configMap = sources.addObject().putObject("configMap");
        configMap.put("name", "kube-root-ca.crt");
        configMap.putArray("items").addObject().put("key", "ca.crt").put("path", "ca.crt");
        sources.addObject().putObject("downwardAPI").putArray("items").addObject().put("path", "namespace")
                .putObject("fieldRef").put("apiVersion", "v1").put("fieldPath", "metadata.namespace");
        projected.put("defaultMode", 420);
        return v;
    }
}
