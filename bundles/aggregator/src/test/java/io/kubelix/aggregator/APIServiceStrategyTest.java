package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class APIServiceStrategyTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");
    private final APIServiceStrategy strategy = new APIServiceStrategy(Clock.fixed(NOW, ZoneOffset.UTC));
    private final RequestContext ctx = RequestContext.system("");

    private static ObjectNode apiService(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json);
    }

    private static ObjectNode remote() throws Exception {
        return apiService("""
                {"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","metadata":{"name":"v1beta1.metrics.k8s.io"},
                 "spec":{"group":"metrics.k8s.io","version":"v1beta1","groupPriorityMinimum":100,"versionPriority":100,
                         "service":{"namespace":"kube-system","name":"metrics-server"},"insecureSkipTLSVerify":true},
                 "status":{"conditions":[{"type":"Available","status":"True"}]}}""");
    }

    private static List<String> messages(List<FieldError> errs) {
        return errs.stream().map(e -> e.field() + ": " + e.detail()).toList();
    }

    @Test
    void aRemoteAPIServiceGetsPort443AndStartsWithoutStatus() throws Exception {
        ObjectNode obj = remote();
        strategy.prepareForCreate(ctx, obj);
        assertEquals(443, obj.path("spec").path("service").path("port").asInt());
        assertFalse(obj.has("status"));
        assertEquals(List.of(), strategy.validate(ctx, obj));
    }

    @Test
    void aLocalAPIServiceIsAvailableAtOnce() throws Exception {
        ObjectNode obj = apiService("""
                {"metadata":{"name":"v1.apps"},"spec":{"group":"apps","version":"v1","groupPriorityMinimum":17800,"versionPriority":15}}""");
        strategy.prepareForCreate(ctx, obj);
        assertEquals("True", APIServices.availableCondition(obj).path("status").asText());
        assertEquals("Local", APIServices.availableCondition(obj).path("reason").asText());
        assertEquals("Local APIServices are always available", APIServices.availableCondition(obj).path("message").asText());
        assertEquals("2026-01-02T03:04:05Z", APIServices.availableCondition(obj).path("lastTransitionTime").asText());
        assertEquals("True", APIServiceRESTStorageProvider.availableCell(obj));
        assertEquals("Local", APIServiceRESTStorageProvider.serviceCell(obj));
        assertEquals(List.of(), strategy.validate(ctx, obj));
    }

    @Test
    void anUpdateKeepsTheStoredStatus() throws Exception {
        ObjectNode old = remote();
        ObjectNode obj = remote();
        ((ObjectNode) obj.path("status").path("conditions").get(0)).put("status", "False");
        strategy.prepareForUpdate(ctx, obj, old);
        assertEquals("True", APIServices.availableCondition(obj).path("status").asText());
    }

    @Test
    void theNameMustBeVersionDotGroup() throws Exception {
        ObjectNode obj = remote();
        ((ObjectNode) obj.path("metadata")).put("name", "metrics");
        assertEquals(List.of("metadata.name: must be `spec.version+\".\"+spec.group`: \"v1beta1.metrics.k8s.io\""),
                messages(strategy.validate(ctx, obj)));
    }

    @Test
    void prioritiesGroupAndVersionAreCheckedAsKubeDoes() throws Exception {
        ObjectNode obj = apiService("""
                {"metadata":{"name":"V1.x"},"spec":{"group":"","version":"V1","groupPriorityMinimum":20001,"versionPriority":0,
                 "service":{"port":443}, "caBundle":"AAAA", "insecureSkipTLSVerify":true}}""");
        assertEquals(List.of(
                "metadata.name: must be `spec.version+\".\"+spec.group`: \"V1.\"",
                "spec.group: only v1 may have an empty group and it better be legacy kube",
                "spec.version: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
                        + "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "
                        + "regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
                "spec.groupPriorityMinimum: must be positive and less than 20000",
                "spec.versionPriority: must be positive and less than 1000",
                "spec.service.namespace: ",
                "spec.service.name: ",
                "spec.insecureSkipTLSVerify: may not be true if caBundle is present"),
                messages(strategy.validate(ctx, obj)));
    }

    @Test
    void aLocalAPIServiceHasNoTlsSettings() throws Exception {
        ObjectNode obj = apiService("""
                {"metadata":{"name":"v1.example.com"},"spec":{"group":"example.com","version":"v1","groupPriorityMinimum":1,
                 "versionPriority":1,"caBundle":"AAAA","insecureSkipTLSVerify":true}}""");
        List<FieldError> errs = strategy.validate(ctx, obj);
        assertEquals(List.of("spec.caBundle: local APIServices may not have a caBundle",
                "spec.insecureSkipTLSVerify: local APIServices may not have insecureSkipTLSVerify"), messages(errs));
        assertEquals("3 bytes", errs.get(0).value());
    }

    @Test
    void theAvailableColumnNamesTheReasonUnlessTrue() throws Exception {
        ObjectNode obj = remote();
        assertEquals("True", APIServiceRESTStorageProvider.availableCell(obj));
        assertEquals("kube-system/metrics-server", APIServiceRESTStorageProvider.serviceCell(obj));
        APIServices.setAvailable(obj, "False", "FailedDiscoveryCheck", "failing", NOW);
        assertEquals("False (FailedDiscoveryCheck)", APIServiceRESTStorageProvider.availableCell(obj));
        obj.remove("status");
        assertEquals("Unknown", APIServiceRESTStorageProvider.availableCell(obj));
    }

    @Test
    void theStatusSubresourceAcceptsOnlyKnownConditionStatuses() throws Exception {
        ObjectNode obj = remote();
        ((ObjectNode) obj.path("status").path("conditions").get(0)).put("status", "Maybe");
        List<FieldError> errs = new APIServiceStatusStrategy().validateUpdate(ctx, obj, remote());
        assertEquals(1, errs.size());
        assertEquals("status.conditions[0].status", errs.get(0).field());
        assertTrue(errs.get(0).detail().contains("\"True\""), errs.get(0).detail());
    }
}
