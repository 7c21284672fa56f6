package io.kubelix.resource.core.volume;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.resource.core.testing.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** DefaultStorageClass on new claims. */
class DefaultStorageClassTest {
    private static final GroupVersionResource CLAIMS = new GroupVersionResource("", "v1", "persistentvolumeclaims");

    private static ObjectNode storageClass(String name, String created, boolean isDefault) {
        return Json.obj("{'metadata':{'name':'" + name + "','creationTimestamp':'" + created + "'"
                + (isDefault ? ",'annotations':{'storageclass.kubernetes.io/is-default-class':'true'}" : "") + "}}");
    }

    private static ObjectNode admitted(DefaultStorageClass plugin, String claim) {
        ObjectNode obj = Json.obj(claim);
        plugin.admit(new AdmissionAttributes(Operation.CREATE, new GroupVersionKind("", "v1", "PersistentVolumeClaim"),
                CLAIMS, "", "team", "data", obj, null, false, RequestContext.system("team")));
        return obj;
    }

    @Test
    void aClaimWithoutAClassGetsTheNewestDefaultOne() {
        DefaultStorageClass plugin = new DefaultStorageClass(() -> List.of(storageClass("old", "2024-01-01T00:00:00Z", true),
                storageClass("fast", "2025-01-01T00:00:00Z", true), storageClass("slow", "2026-01-01T00:00:00Z", false)));

        assertEquals("fast", admitted(plugin, "{'spec':{}}").path("spec").path("storageClassName").asText());
        assertEquals("", admitted(plugin, "{'spec':{'storageClassName':''}}").path("spec").path("storageClassName").asText(),
                "an empty class asks for none");
        assertEquals("slow", admitted(plugin, "{'spec':{'storageClassName':'slow'}}").path("spec").path("storageClassName")
                .asText());
    }

    @Test
    void withoutADefaultClassTheClaimIsLeftAlone() {
        DefaultStorageClass plugin = new DefaultStorageClass(() -> List.of(storageClass("slow", "2026-01-01T00:00:00Z", false)));

        assertEquals(false, admitted(plugin, "{'spec':{}}").path("spec").has("storageClassName"));
    }
}
