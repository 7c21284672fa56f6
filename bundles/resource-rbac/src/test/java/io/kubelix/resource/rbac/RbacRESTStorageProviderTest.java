package io.kubelix.resource.rbac;

import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.StoreSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

class RbacRESTStorageProviderTest {

    @Test
    void scopesNamesAndSchemasAsKube() {
        List<StoreSpec> specs = List.of(RbacRESTStorageProvider.roleSpec(), RbacRESTStorageProvider.roleBindingSpec(),
                RbacRESTStorageProvider.clusterRoleSpec(), RbacRESTStorageProvider.clusterRoleBindingSpec());
        assertEquals(List.of(true, true, false, false), specs.stream().map(StoreSpec::namespaced).toList());
        specs.forEach(s -> {
            assertEquals(NameValidation.PATH_SEGMENT, s.nameValidation(), s.kind());
            assertEquals(List.of(), s.shortNames(), s.kind());
            assertEquals(List.of(), s.categories(), s.kind());
            assertFalse(s.generation(), s.kind());
            assertNotNull(s.schema(), s.kind());
        });
    }
}
