package io.kubelix.resource.apps;

import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.StoreSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AppsRESTStorageProviderTest {

    @Test
    void workloadsHaveKubesShortNamesCategoryAllAndGeneration() {
        List<StoreSpec> workloads = List.of(AppsRESTStorageProvider.deploymentSpec(), AppsRESTStorageProvider.replicaSetSpec(),
                AppsRESTStorageProvider.statefulSetSpec(), AppsRESTStorageProvider.daemonSetSpec());

        assertEquals(List.of("deploy", "rs", "sts", "ds"), workloads.stream().map(s -> s.shortNames().get(0)).toList());
        workloads.forEach(s -> {
            assertEquals(List.of("all"), s.categories(), s.kind());
            assertTrue(s.generation(), s.kind());
            assertTrue(s.namespaced(), s.kind());
            assertEquals("apps", s.groupResource().group());
        });
        assertEquals(NameValidation.DNS1123_LABEL, AppsRESTStorageProvider.statefulSetSpec().nameValidation());
        assertEquals(NameValidation.DNS1123_SUBDOMAIN, AppsRESTStorageProvider.deploymentSpec().nameValidation());
    }

    @Test
    void controllerRevisionsAreInNoCategoryAndHaveNoGeneration() {
        StoreSpec spec = AppsRESTStorageProvider.controllerRevisionSpec();

        assertEquals(List.of(), spec.categories());
        assertEquals(List.of(), spec.shortNames());
        assertFalse(spec.generation());
    }
}
