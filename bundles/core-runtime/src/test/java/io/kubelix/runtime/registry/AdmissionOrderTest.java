package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.runtime.server.PluginSwaps;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** --enable-admission-plugins and --disable-admission-plugins as kube-apiserver reads them. */
class AdmissionOrderTest {

    @Test
    void kubesDefaultPluginsRunUnlessDisabledAndTheOthersOnlyWhenEnabled() {
        Predicate<String> defaults = AdmissionOrder.enabled(null, null);
        assertTrue(defaults.test("NamespaceLifecycle"));
        assertTrue(defaults.test("ValidatingAdmissionWebhook"));
        assertFalse(defaults.test("AlwaysPullImages"));
        assertTrue(defaults.test("DenyForbiddenLabel"), "a plugin of one's own runs when installed");

        Predicate<String> chosen = AdmissionOrder.enabled("AlwaysPullImages, NodeRestriction",
                "ValidatingAdmissionWebhook,MutatingAdmissionWebhook");
        assertTrue(chosen.test("AlwaysPullImages"));
        assertTrue(chosen.test("NodeRestriction"));
        assertFalse(chosen.test("ValidatingAdmissionWebhook"));
        assertFalse(chosen.test("MutatingAdmissionWebhook"));
        assertTrue(chosen.test("NamespaceLifecycle"));
    }

    @Test
    void unknownOrOverlappingNamesAreKubesErrors() {
        assertEquals("enable-admission-plugins plugin \"Foo\" is unknown, disable-admission-plugins plugin \"Bar\" is unknown",
                assertThrows(IllegalArgumentException.class, () -> AdmissionOrder.enabled("Foo", "Bar")).getMessage());
        assertEquals("[LimitRanger ResourceQuota] in enable-admission-plugins and disable-admission-plugins overlapped",
                assertThrows(IllegalArgumentException.class, () -> AdmissionOrder.enabled("ResourceQuota,LimitRanger",
                        "LimitRanger,ResourceQuota")).getMessage());
    }

    @Test
    void aDisabledPluginIsNotRunByTheChain() {
        AdmissionChain chain = new AdmissionChain(PluginSwaps.none(),
                AdmissionOrder.enabled("", "MutatingAdmissionWebhook"), null);
        List<String> ran = new ArrayList<>();
        chain.addMutating(TestAdmissionPlugins.mutating("MutatingAdmissionWebhook", a -> ran.add("webhook")),
                Map.of("service.id", 1L));
        chain.addMutating(TestAdmissionPlugins.mutating("Mine", a -> ran.add("mine")), Map.of("service.id", 2L));

        chain.admit(new AdmissionAttributes(Operation.CREATE,
                new GroupVersionKind("", "v1", "ConfigMap"),
                new GroupVersionResource("", "v1", "configmaps"), "", "default", "c",
                new ObjectMapper().createObjectNode(), null, false,
                RequestContext.system("default")));

        assertEquals(List.of("mine"), ran);
    }
}
