package io.kubelix.resource.core.serviceaccount;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.testing.informer.FakeInformerFactory;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube's service account controller's decision for one namespace, over caches the test fills. */
class DefaultServiceAccountsTest {
    private final FakeInformerFactory caches = new FakeInformerFactory();
    private final List<String> created = new ArrayList<>();
    private boolean exists;

    private final StandardStorage serviceAccounts = (StandardStorage) Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {StandardStorage.class}, (proxy, method, args) -> {
                if (!method.getName().equals("create")) {
                    throw new UnsupportedOperationException(method.getName());
                }
                String ns = ((io.kubelix.api.request.RequestContext) args[0]).namespace();
                if (exists) {
                    throw StatusException.alreadyExists(ServiceAccountSpecs.SERVICE_ACCOUNTS, "default");
                }
                created.add(ns + "/" + ((ObjectNode) args[1]).path("metadata").path("name").asText());
                return args[1];
            });

    private void put(GroupVersionResource r, String key, ObjectNode obj) {
        caches.forResource(r).put(key, obj);
    }

    private static ObjectNode namespace(String name, boolean terminating) {
        ObjectNode ns = JsonNodeFactory.instance.objectNode();
        ns.putObject("metadata").put("name", name);
        if (terminating) {
            ns.putObject("status").put("phase", "Terminating");
        }
        return ns;
    }

    @Test
    void aNamespaceWithoutItsDefaultServiceAccountGetsOneUnlessItIsGoneOrTerminating() {
        DefaultServiceAccounts controller = new DefaultServiceAccounts(serviceAccounts, caches);
        put(DefaultServiceAccounts.NAMESPACES, "team", namespace("team", false));
        put(DefaultServiceAccounts.NAMESPACES, "leaving", namespace("leaving", true));
        put(DefaultServiceAccounts.NAMESPACES, "served", namespace("served", false));
        put(DefaultServiceAccounts.SERVICE_ACCOUNTS, "served/default", JsonNodeFactory.instance.objectNode());

        assertTrue(controller.sync("team"));
        assertFalse(controller.sync("leaving"), "a terminating namespace gets none");
        assertFalse(controller.sync("gone"), "nor one that is gone");
        assertFalse(controller.sync("served"), "nor one that has it");
        assertEquals(List.of("team/default"), created);

        exists = true;
        assertFalse(controller.sync("team"), "created meanwhile: AlreadyExists is no failure");
    }
}
