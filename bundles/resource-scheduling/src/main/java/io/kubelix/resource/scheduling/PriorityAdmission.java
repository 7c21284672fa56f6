package io.kubelix.resource.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.MutatingAdmissionPlugin;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.GenericLister;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.support.admission.guard.ObjectWrites;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import java.time.Duration;
import java.util.Comparator;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * kube's Priority admission plugin (plugin/pkg/admission/priority) for pods: a new pod gets the
 * {@code priority} and {@code preemptionPolicy} of the PriorityClass it names, or of the global
 * default class (whose name it then gets; the lowest when several are), or {@code 0} and
 * {@code PreemptLowerPriority} when there is none. A class that does not exist, or a priority or
 * policy in the pod that differs from the class's, is kube's 403. An update that leaves them out
 * keeps the pod's. It also validates PriorityClasses, as kube's: a class may become the global default
 * only while no other class is one (on create, while no class at all is), else kube's 403
 * ({@code PriorityClass low is already marked as default. Only one default can exist}). Classes are read
 * from the server's informer.
 */
@Component(service = {MutatingAdmissionPlugin.class, ValidatingAdmissionPlugin.class})
public final class PriorityAdmission implements MutatingAdmissionPlugin, ValidatingAdmissionPlugin {
    static final String PLUGIN_NAME = "Priority";
    static final GroupVersionResource PRIORITY_CLASSES = new GroupVersionResource(
            SchedulingRESTStorageProvider.GROUP, SchedulingRESTStorageProvider.VERSION, "priorityclasses");
    private static final Duration SYNC_WAIT = Duration.ofSeconds(5);

    private final Supplier<GenericLister> classes;

    @Activate
    public PriorityAdmission(@Reference SharedInformerFactory informers) {
        this(() -> synced(informers.forResource(PRIORITY_CLASSES)));
    }

    PriorityAdmission(Supplier<GenericLister> classes) {
        this.classes = classes;
    }

    /** kube's ReadyFunc: the informer's first list, waited for a moment. */
    private static GenericLister synced(SharedIndexInformer informer) {
        try {
            if (informer.hasSynced() || informer.waitForSync(SYNC_WAIT)) {
                return informer.lister();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return null;
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
        if (a.operation() == Operation.UPDATE) {
            // API validation keeps priority immutable: an update that leaves it out keeps what create set.
            JsonNode old = a.oldObject() == null ? null : a.oldObject().path("spec");
            for (String field : new String[] {"priority", "preemptionPolicy"}) {
                if (old != null && unset(spec, field) && !unset(old, field)) {
                    spec.set(field, old.get(field).deepCopy());
                }
            }
            return;
        }
        GenericLister lister = classes.get();
        if (lister == null) {
            throw forbidden(a, "not yet ready to handle request");
        }
        String className = spec.path("priorityClassName").asText("");
        ObjectNode pc;
        if (className.isEmpty()) {
            pc = defaultClass(lister);
            if (pc != null) {
                spec.put("priorityClassName", pc.path("metadata").path("name").asText());
            }
        } else {
            pc = lister.get(className).orElseThrow(() -> forbidden(a, "no PriorityClass with name " + className
                    + " was found"));
        }
        long priority = pc == null ? 0 : pc.path("value").asLong();
        String policy = pc == null ? "PreemptLowerPriority" : Optional.ofNullable(pc.get("preemptionPolicy"))
                .filter(JsonNode::isTextual).map(JsonNode::asText).orElse(null);
        if (!unset(spec, "priority") && spec.path("priority").asLong() != priority) {
            throw forbidden(a, "the integer value of priority (" + spec.path("priority").asLong() + ") must not be "
                    + "provided in pod spec; priority admission controller computed " + priority
                    + " from the given PriorityClass name");
        }
        spec.put("priority", priority);
        if (policy != null) {
            if (!unset(spec, "preemptionPolicy") && !spec.path("preemptionPolicy").asText().equals(policy)) {
                throw forbidden(a, "the string value of PreemptionPolicy (" + spec.path("preemptionPolicy").asText()
                        + ") must not be provided in pod spec; priority admission controller computed " + policy
                        + " from the given PriorityClass name");
            }
            spec.put("preemptionPolicy", policy);
        }
    }

    /** kube's validatePriorityClass: a second global default is refused. */
    @Override
    public void validate(AdmissionAttributes a) {
        if (!SchedulingRESTStorageProvider.GROUP.equals(a.resource().group())
                || !PRIORITY_CLASSES.resource().equals(a.resource().resource()) || !a.subresource().isEmpty()
                || a.object() == null || !a.object().path("globalDefault").asBoolean(false)) {
            return;
        }
        GenericLister lister = classes.get();
        if (lister == null) {
            throw forbidden(a, "not yet ready to handle request");
        }
        ObjectNode current = defaultClass(lister);
        if (current == null) {
            return;
        }
        String name = current.path("metadata").path("name").asText();
        if (a.operation() == Operation.CREATE || !name.equals(a.name())) {
            throw forbidden(a, "PriorityClass " + name + " is already marked as default. Only one default can exist");
        }
    }

    /** kube's getDefaultPriorityClass: the global default class, the lowest when several are. */
    private static ObjectNode defaultClass(GenericLister lister) {
        return lister.list().stream().filter(c -> c.path("globalDefault").asBoolean(false))
                .min(Comparator.comparingLong(c -> c.path("value").asLong())).orElse(null);
    }

    private static boolean unset(JsonNode spec, String field) {
        JsonNode v = spec.get(field);
        return v == null || v.isNull();
    }

    private static StatusException forbidden(AdmissionAttributes a, String why) {
        return StatusException.forbidden(a.resource().groupResource(), a.name(), why);
    }
}
