package io.kubelix.runtime.registry;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.StorageException;
import io.kubelix.api.storage.StorageInterface;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A storage that cannot be reached gives list and watch a 503 Status, as it gives single-object calls. */
class GenericStoreUnreachableTest {

    private static final class Strategy implements RESTCreateStrategy, RESTUpdateStrategy {
        @Override
        public java.util.List<io.kubelix.api.errors.FieldError> validate(RequestContext ctx,
                                                                         com.fasterxml.jackson.databind.node.ObjectNode obj) {
            return java.util.List.of();
        }

        @Override
        public java.util.List<io.kubelix.api.errors.FieldError> validateUpdate(RequestContext ctx,
                com.fasterxml.jackson.databind.node.ObjectNode obj, com.fasterxml.jackson.databind.node.ObjectNode old) {
            return java.util.List.of();
        }
    }

    @Test
    void listAndWatchOnAnUnreachableStorageAre503() {
        StorageInterface unreachable = (StorageInterface) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {StorageInterface.class}, (proxy, method, args) -> {
                    throw new StorageException(StorageException.Code.UNREACHABLE, "/widgets", 0,
                            "etcd is unreachable: connection refused");
                });
        GenericStore store = new GenericStore(StoreSpec.builder(GroupResource.of("example.com", "widgets"), "Widget")
                .strategy(new Strategy()).build(), unreachable, new AdmissionChain());

        for (Runnable call : new Runnable[] {
                () -> store.list(RequestContext.system("default"), ListOptions.recursiveAll()),
                () -> store.watch(RequestContext.system("default"), ListOptions.recursiveAll())}) {
            StatusException e = assertThrows(StatusException.class, call::run);
            assertEquals(503, e.code());
            assertEquals(StatusReason.SERVICE_UNAVAILABLE, e.reason());
            assertTrue(e.getMessage().contains("etcd is unreachable"), e.getMessage());
        }
    }
}
