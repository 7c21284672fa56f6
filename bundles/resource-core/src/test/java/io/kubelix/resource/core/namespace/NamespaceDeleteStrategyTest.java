package io.kubelix.resource.core.namespace;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A namespace is deleted in two steps, as kube's namespace REST deletes it. */
class NamespaceDeleteStrategyTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final NamespaceDeleteStrategy strategy = new NamespaceDeleteStrategy();

    private static ObjectNode ns(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
    }

    @Test
    void aNamespaceNotYetDeletingIsOnlyMarkedAndBecomesTerminating() throws Exception {
        ObjectNode active = ns("{'metadata':{'name':'team'},'spec':{'finalizers':['kubernetes']},'status':{'phase':'Active'}}");
        assertTrue(strategy.hasPendingFinalizers(active));
        strategy.prepareForDeletion(active);
        assertEquals("Terminating", active.path("status").path("phase").asText());
        // even without spec.finalizers the first delete only marks it: the controller empties it first
        assertTrue(strategy.hasPendingFinalizers(ns("{'metadata':{'name':'old'},'status':{'phase':'Active'}}")));
    }

    @Test
    void aTerminatingNamespaceWithFinalizersIsAConflictAndWithoutThemIsRemoved() throws Exception {
        ObjectNode terminating = ns("{'metadata':{'name':'team','deletionTimestamp':'2026-01-01T00:00:00Z'},"
                + "'spec':{'finalizers':['kubernetes']},'status':{'phase':'Terminating'}}");
        assertTrue(strategy.hasPendingFinalizers(terminating));
        StatusException e = assertThrows(StatusException.class, () -> strategy.prepareForDeletion(terminating));
        assertEquals(409, e.code());
        assertEquals("Operation cannot be fulfilled on namespaces \"team\": The system is ensuring all content is "
                + "removed from this namespace.  Upon completion, this namespace will automatically be purged by the "
                + "system.", e.getMessage());

        ObjectNode finalized = ns("{'metadata':{'name':'team','deletionTimestamp':'2026-01-01T00:00:00Z'},"
                + "'spec':{'finalizers':[]},'status':{'phase':'Terminating'}}");
        assertFalse(strategy.hasPendingFinalizers(finalized));
    }
}
