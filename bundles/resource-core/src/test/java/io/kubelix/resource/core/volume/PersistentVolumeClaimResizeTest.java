package io.kubelix.resource.core.volume;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.resource.core.testing.Json;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** PersistentVolumeClaimResize on claim updates. */
class PersistentVolumeClaimResizeTest {
    private static final GroupVersionResource CLAIMS = new GroupVersionResource("", "v1", "persistentvolumeclaims");
    private static final Map<String, ObjectNode> CLASSES = Map.of(
            "expandable", Json.obj("{'metadata':{'name':'expandable'},'allowVolumeExpansion':true}"),
            "fixed", Json.obj("{'metadata':{'name':'fixed'}}"));
    private final PersistentVolumeClaimResize plugin = new PersistentVolumeClaimResize(
            name -> Optional.ofNullable(CLASSES.get(name)));

    private static ObjectNode claim(String storageClass, String size, String phase) {
        return Json.obj("{'metadata':{'name':'data'},'spec':{'storageClassName':'" + storageClass
                + "','resources':{'requests':{'storage':'" + size + "'}}},'status':{'phase':'" + phase + "'}}");
    }

    private void update(ObjectNode claim, ObjectNode old) {
        plugin.validate(new AdmissionAttributes(Operation.UPDATE, new GroupVersionKind("", "v1", "PersistentVolumeClaim"),
                CLAIMS, "", "team", "data", claim, old, false, RequestContext.system("team")));
    }

    @Test
    void aBoundClaimOfAnExpandableClassMayGrow() {
        assertDoesNotThrow(() -> update(claim("expandable", "2Gi", "Bound"), claim("expandable", "1Gi", "Bound")));
    }

    @Test
    void aClassWithoutExpansionOrNoneAtAllRefusesGrowth() {
        for (String cls : new String[] {"fixed", "missing", ""}) {
            StatusException e = assertThrows(StatusException.class,
                    () -> update(claim(cls, "2Gi", "Bound"), claim(cls, "1Gi", "Bound")));
            assertEquals(403, e.code());
            assertEquals("persistentvolumeclaims \"data\" is forbidden: only dynamically provisioned pvc can be resized "
                    + "and the storageclass that provisions the pvc must support resize", e.getMessage());
        }
    }

    @Test
    void onlyABoundClaimMayGrow() {
        StatusException e = assertThrows(StatusException.class,
                () -> update(claim("expandable", "2Gi", "Pending"), claim("expandable", "1Gi", "Pending")));
        assertEquals("persistentvolumeclaims \"data\" is forbidden: Only bound persistent volume claims can be expanded",
                e.getMessage());
    }

    @Test
    void updatesThatDoNotGrowTheClaimAreLeftToTheStrategy() {
        assertDoesNotThrow(() -> update(claim("fixed", "1Gi", "Bound"), claim("fixed", "1Gi", "Bound")));
        assertDoesNotThrow(() -> update(claim("fixed", "512Mi", "Bound"), claim("fixed", "1Gi", "Bound")));
        assertDoesNotThrow(() -> update(claim("fixed", "1024Mi", "Pending"), claim("fixed", "1Gi", "Pending")));
    }
}
