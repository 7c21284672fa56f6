package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.GenericLister;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.UpdateResult;
import io.kubelix.api.registry.UpdatedObjectInfo;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.api.schema.SchemaResolver;
import io.kubelix.support.admission.PolicyTypeChecker;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.kubelix.resource.admissionregistration.Fixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The status controller writes the type checker's warnings and the generation it checked, once per generation. */
class PolicyTypeCheckingControllerTest {
    private final List<ObjectNode> written = new ArrayList<>();
    private ObjectNode stored;

    /** Config maps have a {@code data} map of strings, and the metadata every object has. */
    private static final SchemaResolver CONFIGMAPS = new SchemaResolver() {
        @Override
        public GroupVersionKind kindFor(GroupVersionResource resource) {
            return resource.resource().equals("configmaps") ? new GroupVersionKind("", "v1", "ConfigMap") : null;
        }

        @Override
        public ResourceSchema resolveSchema(GroupVersionKind kind) {
            return ResourceSchema.of(json("{'ConfigMap':{'type':'object','properties':{'apiVersion':{'type':'string'},"
                    + "'kind':{'type':'string'},'metadata':{'type':'object','properties':{'name':{'type':'string'},"
                    + "'generateName':{'type':'string'}}},'data':{'type':'object','additionalProperties':{'type':'string'}}}}}"),
                    "ConfigMap");
        }
    };

    private final Updater status = new Updater() {
        @Override
        public UpdateResult update(RequestContext ctx, String name, UpdatedObjectInfo objInfo, UpdateOptions options) {
            stored = objInfo.updatedObject(ctx, stored);
            written.add(stored);
            return new UpdateResult(stored, false);
        }

        @Override
        public String kind() {
            return "ValidatingAdmissionPolicy";
        }

        @Override
        public boolean namespaced() {
            return false;
        }

        @Override
        public String singularName() {
            return "validatingadmissionpolicy";
        }
    };

    /** Informers whose policies are {@link #stored}; queues and workers that do nothing (the test reconciles). */
    private SharedInformerFactory informers() {
        GenericLister lister = proxy(GenericLister.class, (m, args) -> m.equals("get") ? Optional.ofNullable(stored) : null);
        SharedIndexInformer informer = proxy(SharedIndexInformer.class, (m, args) -> switch (m) {
            case "lister" -> lister;
            case "addEventHandler" -> proxy(io.kubelix.api.informer.ResourceEventHandlerRegistration.class, (n, a) -> null);
            default -> null;
        });
        return proxy(SharedInformerFactory.class, (m, args) -> switch (m) {
            case "forResource" -> informer;
            case "newRateLimitingQueue" -> proxy(io.kubelix.api.informer.RateLimitingQueue.class, (n, a) -> null);
            case "runWorkers" -> proxy(io.kubelix.api.informer.Workers.class, (n, a) -> null);
            default -> null;
        });
    }

    private interface Answer {
        Object answer(String method, Object[] args);
    }

    @SuppressWarnings("unchecked")
    private static <T> T proxy(Class<T> type, Answer answer) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type},
                (p, m, args) -> answer.answer(m.getName(), args));
    }

    @Test
    void warningsAndTheObservedGenerationAreWrittenOncePerGeneration() {
        stored = json("{'metadata':{'name':'cm-policy','generation':2},'spec':{'matchConstraints':{'resourceRules':[{"
                + "'apiGroups':[''],'apiVersions':['v1'],'resources':['configmaps'],'operations':['CREATE']}]},"
                + "'validations':[{'expression':'object.data.size() < 3'},{'expression':'object.date.size() < 3'}]},"
                + "'status':{'observedGeneration':1,'conditions':[]}}");
        PolicyTypeCheckingController controller = new PolicyTypeCheckingController(informers(), status,
                new PolicyTypeChecker(CONFIGMAPS));

        controller.reconcile("cm-policy");
        controller.reconcile("cm-policy");

        assertEquals(1, written.size(), "the generation is checked once");
        ObjectNode s = (ObjectNode) stored.get("status");
        assertEquals(2, s.path("observedGeneration").asLong());
        assertEquals(json("{'list':[]}").get("list"), s.get("conditions"));
        assertEquals("spec.validations[1].expression",
                s.path("typeChecking").path("expressionWarnings").path(0).path("fieldRef").asText());
        assertEquals("""
                /v1, Kind=ConfigMap: ERROR: <input>:1:7: undefined field 'date'
                 | object.date.size() < 3
                 | ......^
                """, s.path("typeChecking").path("expressionWarnings").path(0).path("warning").asText());
        assertEquals(1, s.path("typeChecking").path("expressionWarnings").size());

        ((ObjectNode) stored.get("metadata")).put("generation", 3);
        ((ObjectNode) stored.get("spec")).withArray("validations").remove(1);
        controller.reconcile("cm-policy");
        assertEquals(3, stored.path("status").path("observedGeneration").asLong());
        assertEquals(json("{}"), stored.path("status").get("typeChecking"), "no warnings: an empty typeChecking");
    }
}
