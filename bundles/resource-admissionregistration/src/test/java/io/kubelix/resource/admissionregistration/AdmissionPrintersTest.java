package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.kubelix.resource.admissionregistration.Fixtures.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AdmissionPrintersTest {

    private static List<Object> row(List<TableColumn> columns, ObjectNode o) {
        List<Object> out = new ArrayList<>();
        columns.forEach(c -> out.add(c.isAge() ? "AGE" : c.cell().apply(o)));
        return out;
    }

    @Test
    void webhookConfigurationsCountTheirWebhooks() {
        ObjectNode cfg = json("{'metadata':{'name':'cfg'},'webhooks':[{'name':'a.example.com'},{'name':'b.example.com'}]}");
        assertEquals(List.of("cfg", 2L, "AGE"), row(AdmissionPrinters.webhookConfigurationColumns(), cfg));
    }

    @Test
    void policiesShowValidationsAndParamKind() {
        ObjectNode p = ValidatingAdmissionPolicyStrategyTest.replicaLimit();
        assertEquals(List.of("demo-policy.example.com", 1L, "<unset>", "AGE"), row(AdmissionPrinters.policyColumns(), p));
        p.withObject("/spec").putObject("paramKind").put("apiVersion", "rules.example.com/v1").put("kind", "ReplicaLimit");
        assertEquals("rules.example.com/v1/ReplicaLimit", row(AdmissionPrinters.policyColumns(), p).get(2));
    }

    @Test
    void bindingsShowPolicyAndParamRef() {
        ObjectNode b = json("{'metadata':{'name':'b'},'spec':{'policyName':'p','paramRef':{'name':'limits','namespace':'ns'}}}");
        assertEquals(List.of("b", "p", "ns/limits", "AGE"), row(AdmissionPrinters.bindingColumns(), b));
        b.withObject("/spec/paramRef").remove("namespace");
        assertEquals("*/limits", row(AdmissionPrinters.bindingColumns(), b).get(2));
        b.withObject("/spec").putObject("paramRef").putObject("selector").putObject("matchLabels").put("tier", "gold");
        assertEquals("tier=gold", row(AdmissionPrinters.bindingColumns(), b).get(2));
    }

    @Test
    void everyResourceIsClusterScopedInCategoryApiExtensions() {
        for (StoreSpec s : List.of(AdmissionRegistrationRESTStorageProvider.mutatingWebhookSpec(),
                AdmissionRegistrationRESTStorageProvider.validatingWebhookSpec(),
                AdmissionRegistrationRESTStorageProvider.policySpec(), AdmissionRegistrationRESTStorageProvider.policyBindingSpec())) {
            assertFalse(s.namespaced(), s.kind());
            assertEquals(List.of("api-extensions"), s.categories(), s.kind());
            assertEquals(List.of(), s.shortNames(), s.kind());
            assertTrue(s.generation(), s.kind());
            assertNotNull(s.schema(), s.kind());
        }
    }
}
