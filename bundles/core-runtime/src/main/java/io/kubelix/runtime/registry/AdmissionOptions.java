package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.UpdateOptions;

/**
 * A write's options as kube hands them to admission ({@code AdmissionRequest.options}): the
 * {@code meta.k8s.io/v1} CreateOptions, UpdateOptions or DeleteOptions object, with only the
 * fields the request set.
 */
public final class AdmissionOptions {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private AdmissionOptions() {
    }

    public static ObjectNode of(CreateOptions options) {
        ObjectNode o = typed("CreateOptions", options.dryRun());
        if (options.fieldManager() != null && !options.fieldManager().isEmpty()) {
            o.put("fieldManager", options.fieldManager());
        }
        return o;
    }

    public static ObjectNode of(UpdateOptions options) {
        ObjectNode o = typed("UpdateOptions", options.dryRun());
        if (options.fieldManager() != null && !options.fieldManager().isEmpty()) {
            o.put("fieldManager", options.fieldManager());
        }
        return o;
    }

    public static ObjectNode of(DeleteOptions options) {
        ObjectNode o = typed("DeleteOptions", options.dryRun());
        if (options.gracePeriodSeconds() != null) {
            o.put("gracePeriodSeconds", options.gracePeriodSeconds());
        }
        if (options.preconditions().uid() != null || options.preconditions().resourceVersion() != null) {
            ObjectNode pre = o.putObject("preconditions");
            if (options.preconditions().uid() != null) {
                pre.put("uid", options.preconditions().uid());
            }
            if (options.preconditions().resourceVersion() != null) {
                pre.put("resourceVersion", options.preconditions().resourceVersion());
            }
        }
        if (options.orphanDependents() != null) {
            o.put("orphanDependents", options.orphanDependents());
        }
        if (options.propagationPolicy() != null) {
            o.put("propagationPolicy", options.propagationPolicy());
        }
        return o;
    }

    private static ObjectNode typed(String kind, boolean dryRun) {
        ObjectNode o = F.objectNode();
        o.put("kind", kind).put("apiVersion", "meta.k8s.io/v1");
        if (dryRun) {
            o.putArray("dryRun").add("All");
        }
        return o;
    }
}
