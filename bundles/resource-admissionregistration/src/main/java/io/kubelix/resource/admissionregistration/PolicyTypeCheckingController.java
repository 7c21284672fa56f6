package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.RateLimitingQueue;
import io.kubelix.api.informer.ResourceEventHandler;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.informer.Workers;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.support.admission.PolicyTypeChecker;

import java.util.List;

/**
 * kube's {@code validatingadmissionpolicy-status-controller}: when a ValidatingAdmissionPolicy's
 * generation is newer than its {@code status.observedGeneration}, its expressions are type-checked
 * ({@link PolicyTypeChecker}) and the status says so: {@code observedGeneration} and
 * {@code typeChecking.expressionWarnings} (none: an empty {@code typeChecking}). Type checking only
 * informs; it never changes what the policy does.
 */
final class PolicyTypeCheckingController {
    static final String NAME = "validatingadmissionpolicy-status-controller";
    static final GroupVersionResource POLICIES = new GroupVersionResource(AdmissionRegistrationRESTStorageProvider.GROUP,
            AdmissionRegistrationRESTStorageProvider.VERSION, AdmissionRegistrationRESTStorageProvider.POLICIES.resource());

    private final SharedIndexInformer policies;
    private final Updater status;
    private final PolicyTypeChecker checker;
    private final ResourceEventHandlerRegistration registration;
    private final Workers workers;

    PolicyTypeCheckingController(SharedInformerFactory informers, Updater status, PolicyTypeChecker checker) {
        this.policies = informers.forResource(POLICIES);
        this.status = status;
        this.checker = checker;
        RateLimitingQueue<String> queue = informers.newRateLimitingQueue(NAME);
        this.registration = policies.addEventHandler(new ResourceEventHandler() {
            @Override
            public void onAdd(ObjectNode obj, boolean isInInitialList) {
                queue.add(name(obj));
            }

            @Override
            public void onUpdate(ObjectNode oldObj, ObjectNode newObj) {
                queue.add(name(newObj));
            }

            @Override
            public void onDelete(ObjectNode obj) {
            }
        });
        this.workers = informers.runWorkers(NAME, queue, 1, this::reconcile);
    }

    void stop() {
        registration.close();
        workers.stop();
    }

    private static String name(ObjectNode o) {
        return o.path("metadata").path("name").asText();
    }

    /** kube's reconcile: nothing to do unless the generation is newer than the one observed. */
    void reconcile(String name) {
        ObjectNode policy = policies.lister().get(name).orElse(null);
        if (policy == null) {
            return;
        }
        long generation = policy.path("metadata").path("generation").asLong(0);
        if (generation <= policy.path("status").path("observedGeneration").asLong(0)) {
            return;
        }
        List<PolicyTypeChecker.ExpressionWarning> warnings = checker.check(policy.path("spec"));
        try {
            status.update(RequestContext.system(""), name, (ctx, current) -> {
                if (current == null) {
                    throw StatusException.notFound(AdmissionRegistrationRESTStorageProvider.POLICIES, name);
                }
                ObjectNode updated = current.deepCopy();
                ObjectNode s = updated.putObject("status");
                if (current.path("status").has("conditions")) {
                    s.set("conditions", current.path("status").get("conditions"));
                }
                s.put("observedGeneration", generation);
                ObjectNode typeChecking = s.putObject("typeChecking");
                if (!warnings.isEmpty()) {
                    ArrayNode list = typeChecking.putArray("expressionWarnings");
                    warnings.forEach(w -> list.addObject().put("fieldRef", w.fieldRef()).put("warning", w.warning()));
                }
                return updated;
            }, new UpdateOptions(false, NAME));
        } catch (StatusException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }
}
