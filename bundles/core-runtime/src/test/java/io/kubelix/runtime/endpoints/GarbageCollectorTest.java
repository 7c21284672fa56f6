package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.WatchEvent;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which changes make the garbage collector read every resource again, and which do not. */
class GarbageCollectorTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void changesToObjectsWithoutOwnersOrADeletionDoNotConcernIt() throws Exception {
        ObjectNode plain = object("{\"metadata\":{\"name\":\"a\",\"ownerReferences\":[],\"finalizers\":[\"x\"]},\"data\":{\"k\":\"v\"}}");

        assertFalse(GarbageCollector.concernsCollector(WatchEvent.of(WatchEvent.Type.ADDED, plain)));
        assertFalse(GarbageCollector.concernsCollector(WatchEvent.of(WatchEvent.Type.MODIFIED, plain)));
        assertFalse(GarbageCollector.concernsCollector(WatchEvent.of(WatchEvent.Type.BOOKMARK, plain)));
    }

    @Test
    void dependentsDeletionsAndObjectsBeingDeletedConcernIt() throws Exception {
        ObjectNode plain = object("{\"metadata\":{\"name\":\"owner\"}}");
        ObjectNode dependent = object("{\"metadata\":{\"name\":\"d\",\"ownerReferences\":[{\"uid\":\"u1\"}]}}");
        ObjectNode going = object("{\"metadata\":{\"name\":\"g\",\"deletionTimestamp\":\"2026-01-01T00:00:00Z\","
                + "\"finalizers\":[\"orphan\"]}}");

        assertTrue(GarbageCollector.concernsCollector(WatchEvent.of(WatchEvent.Type.ADDED, dependent)), "an owner may be missing");
        assertTrue(GarbageCollector.concernsCollector(WatchEvent.of(WatchEvent.Type.MODIFIED, dependent)));
        assertTrue(GarbageCollector.concernsCollector(WatchEvent.of(WatchEvent.Type.MODIFIED, going)), "its finalizers may be ours");
        assertTrue(GarbageCollector.concernsCollector(WatchEvent.of(WatchEvent.Type.DELETED, plain)), "its dependents may be orphans");
    }

    private static ObjectNode object(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json);
    }
}
