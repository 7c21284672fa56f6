package io.kubelix.resource.core.namespace;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kubelix.resource.core.testing.Json.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class NamespaceStrategyTest {
    private final NamespaceStrategy strategy = new NamespaceStrategy();
    private final RequestContext ctx = RequestContext.system("");

    @Test
    void createMakesItActiveWithTheKubernetesFinalizer() {
        ObjectNode ns = obj("{'metadata':{'name':'team-a'},'status':{'phase':'Terminating'}}");
        strategy.prepareForCreate(ctx, ns);
        assertEquals(obj("{'phase':'Active'}"), ns.get("status"));
        assertEquals(obj("{'finalizers':['kubernetes']}"), ns.get("spec"));
    }

    @Test
    void createAppendsTheKubernetesFinalizerOnce() {
        ObjectNode ns = obj("{'spec':{'finalizers':['example.com/x']}}");
        strategy.prepareForCreate(ctx, ns);
        assertEquals(obj("{'f':['example.com/x','kubernetes']}").get("f"), ns.path("spec").get("finalizers"));
        ObjectNode again = obj("{'spec':{'finalizers':['kubernetes']}}");
        strategy.prepareForCreate(ctx, again);
        assertEquals(1, again.path("spec").path("finalizers").size());
    }

    @Test
    void updateKeepsStatusAndFinalizers() {
        ObjectNode old = obj("{'metadata':{'name':'a'},'spec':{'finalizers':['kubernetes']},'status':{'phase':'Active'}}");
        ObjectNode ns = obj("{'metadata':{'name':'a','labels':{'x':'y'}},'spec':{'finalizers':[]},"
                + "'status':{'phase':'Terminating'}}");
        strategy.prepareForUpdate(ctx, ns, old);
        assertEquals("Active", ns.path("status").path("phase").asText());
        assertEquals(old.get("spec"), ns.get("spec"));
        assertEquals("y", ns.path("metadata").path("labels").path("x").asText());

        ObjectNode noStatus = obj("{'metadata':{'name':'a'},'status':{'phase':'Terminating'}}");
        strategy.prepareForUpdate(ctx, noStatus, obj("{'metadata':{'name':'a'}}"));
        assertFalse(noStatus.has("status"));
    }

    @Test
    void finalizerNamesAreValidated() {
        assertEquals(List.of(), strategy.validate(ctx, obj("{'spec':{'finalizers':['kubernetes','example.com/f']}}")));
        List<FieldError> errs = strategy.validate(ctx, obj("{'spec':{'finalizers':['custom']}}"));
        assertEquals(List.of("spec.finalizers: Invalid value: \"custom\": "
                + "name is neither a standard finalizer name nor is it fully qualified"),
                errs.stream().map(FieldError::message).toList());
        assertEquals("spec.finalizers", strategy.validateUpdate(ctx, obj("{'spec':{'finalizers':['a b']}}"), obj("{}"))
                .get(0).field());
    }

    @Test
    void canonicalizeSetsTheMetadataNameLabel() {
        ObjectNode ns = obj("{'metadata':{'name':'team-a','labels':{'kubernetes.io/metadata.name':'other'}}}");
        strategy.canonicalize(ns);
        assertEquals("team-a", ns.path("metadata").path("labels").path("kubernetes.io/metadata.name").asText());
        ObjectNode bare = obj("{'metadata':{'name':'b'}}");
        strategy.canonicalize(bare);
        assertEquals(obj("{'kubernetes.io/metadata.name':'b'}"), bare.path("metadata").get("labels"));
    }
}
