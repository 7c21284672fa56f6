package io.kubelix.resource.coordination;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LeaseStrategyTest {
    private static final RequestContext CTX = RequestContext.system("kube-system");
    private static final ObjectMapper MAPPER = new ObjectMapper().configure(JsonParser.Feature.ALLOW_SINGLE_QUOTES, true);

    private static ObjectNode json(String json) {
        try {
            return (ObjectNode) MAPPER.readTree(json.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private static List<String> validate(ObjectNode lease) {
        return new LeaseStrategy().validate(CTX, lease).stream().map(FieldError::message).toList();
    }

    @Test
    void aLeaseOfAPositiveDurationIsValid() {
        assertEquals(List.of(), validate(json("{'metadata':{'name':'kube-scheduler'},'spec':{'holderIdentity':'node-1',"
                + "'leaseDurationSeconds':15,'leaseTransitions':0,'acquireTime':'2024-01-01T00:00:00.000000Z'}}")));
        assertEquals(List.of(), validate(json("{'metadata':{'name':'empty'},'spec':{}}")));
    }

    @Test
    void durationMustBePositiveAndTransitionsNonNegative() {
        assertEquals(List.of("spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0",
                "spec.leaseTransitions: Invalid value: -1: must be greater than or equal to 0"),
                validate(json("{'metadata':{'name':'l'},'spec':{'leaseDurationSeconds':0,'leaseTransitions':-1}}")));
        List<FieldError> update = new LeaseStrategy().validateUpdate(CTX,
                json("{'metadata':{'name':'l'},'spec':{'leaseDurationSeconds':-5}}"), json("{'metadata':{'name':'l'},'spec':{}}"));
        assertEquals(List.of("spec.leaseDurationSeconds: Invalid value: -5: must be greater than 0"),
                update.stream().map(FieldError::message).toList());
    }

    @Test
    void preferredHolderNeedsAStrategy() {
        assertEquals(List.of("spec.preferredHolder: Forbidden: may only be specified if `strategy` is defined"),
                validate(json("{'metadata':{'name':'l'},'spec':{'preferredHolder':'b'}}")));
        assertEquals(List.of("spec.strategy: Unsupported value: \"Newest\": supported values: \"OldestEmulationVersion\""),
                validate(json("{'metadata':{'name':'l'},'spec':{'strategy':'Newest'}}")));
    }

    @Test
    void printsNameHolderAge() {
        List<TableColumn> columns = CoordinationRESTStorageProvider.leaseColumns();
        assertEquals(List.of("Name", "Holder", "Age"), columns.stream().map(TableColumn::name).toList());
        ObjectNode lease = json("{'metadata':{'name':'kube-scheduler'},'spec':{'holderIdentity':'node-1_abc'}}");
        assertEquals("node-1_abc", columns.get(1).cell().apply(lease));
        assertEquals("", columns.get(1).cell().apply(json("{'metadata':{'name':'x'},'spec':{}}")));
    }

    @Test
    void leasesAreNamespacedWithoutShortNamesOrGeneration() {
        StoreSpec spec = CoordinationRESTStorageProvider.leaseSpec();
        assertTrue(spec.namespaced());
        assertEquals(List.of(), spec.shortNames());
        assertEquals(List.of(), spec.categories());
        assertFalse(spec.generation());
        assertEquals("coordination.k8s.io", spec.groupResource().group());
    }
}
