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
        return written("CreateOptions", options.dryRun(), options.fieldManager(), options.fieldValidation());
    }

    /** An update's or a patch's options: kube hands a patch to admission as UpdateOptions too. */
    public static ObjectNode of(UpdateOptions options) {
        return written("UpdateOptions", options.dryRun(), options.fieldManager(), options.fieldValidation());
    }

    private static ObjectNode written(String kind, boolean dryRun, String fieldManager, String fieldValidation) {
        ObjectNode o = typed(kind, dryRun);
        if (fieldManager != null && !fieldManager.isEmpty()) {
            o.put("fieldManager", fieldManager);
        }
        if (fieldValidation != null && !fieldValidation.isEmpty()) {
            o.put("fieldValidation", fieldValidation);
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
