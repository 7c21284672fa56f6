package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.Operation;
import io.kubelix.support.admission.guard.ObjectWrites;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube's DefaultTolerationSeconds admission plugin (plugin/pkg/admission/defaulttolerationseconds):
 * a pod that does not tolerate the {@code NoExecute} taints {@code node.kubernetes.io/not-ready}
 * and {@code node.kubernetes.io/unreachable} is given tolerations of them for
 * {@code --default-not-ready-toleration-seconds} and {@code --default-unreachable-toleration-seconds}
 * (300 each; the framework properties {@code kubelix.<flag>}), on create and update, as kube's.
 */
@Component(service = MutatingAdmissionPlugin.class)
public final class DefaultTolerationSeconds implements MutatingAdmissionPlugin {
    static final String PLUGIN_NAME = "DefaultTolerationSeconds";
    static final long DEFAULT_SECONDS = 300;
    static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";
    static final String UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";
    private static final String NOT_READY_FLAG = "default-not-ready-toleration-seconds";
    private static final String UNREACHABLE_FLAG = "default-unreachable-toleration-seconds";

    private static final Logger LOG = LoggerFactory.getLogger(DefaultTolerationSeconds.class);

    private final long notReadySeconds;
    private final long unreachableSeconds;

    @Activate
    public DefaultTolerationSeconds(BundleContext context) {
        this(seconds(context, NOT_READY_FLAG), seconds(context, UNREACHABLE_FLAG));
    }

    DefaultTolerationSeconds(long notReadySeconds, long unreachableSeconds) {
        this.notReadySeconds = notReadySeconds;
        this.unreachableSeconds = unreachableSeconds;
    }

    private static long seconds(BundleContext context, String flag) {
        String value = context.getProperty("kubelix." + flag);
        if (value == null || value.isBlank()) {
            return DEFAULT_SECONDS;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            LOG.error("--{} \"{}\" is not an integer: {} s are used", flag, value, DEFAULT_SECONDS);
            return DEFAULT_SECONDS;
        }
    }

    @Override
    public String name() {
        return PLUGIN_NAME;
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE || operation == Operation.UPDATE;
    }

    @Override
    public void admit(AdmissionAttributes a) {
        if (!ObjectWrites.of(a, "", "pods") || !(a.object().path("spec") instanceof ObjectNode spec)) {
            return;
        }
        JsonNode existing = spec.get("tolerations");
        if (existing != null && !existing.isNull() && !existing.isArray()) {
            return;
        }
        boolean notReady = tolerates(existing, NOT_READY_TAINT);
        boolean unreachable = tolerates(existing, UNREACHABLE_TAINT);
        if (notReady && unreachable) {
            return;
        }
        ArrayNode tolerations = existing instanceof ArrayNode list ? list : spec.putArray("tolerations");
        if (!notReady) {
            add(tolerations, NOT_READY_TAINT, notReadySeconds);
        }
        if (!unreachable) {
            add(tolerations, UNREACHABLE_TAINT, unreachableSeconds);
        }
    }

    /** Whether a toleration names the NoExecute taint {@code key}, or every key, as kube's plugin reads it. */
    private static boolean tolerates(JsonNode tolerations, String key) {
        if (tolerations == null) {
            return false;
        }
        for (JsonNode t : tolerations) {
            String effect = t.path("effect").asText("");
            String tKey = t.path("key").asText("");
            if ((tKey.equals(key) || tKey.isEmpty()) && (effect.isEmpty() || effect.equals("NoExecute"))) {
                return true;
            }
        }
        return false;
    }

    private static void add(ArrayNode tolerations, String key, long seconds) {
        ObjectNode t = tolerations.addObject();
        t.put("effect", "NoExecute");
        t.put("key", key);
        t.put("operator", "Exists");
        t.put("tolerationSeconds", seconds);
    }
}
