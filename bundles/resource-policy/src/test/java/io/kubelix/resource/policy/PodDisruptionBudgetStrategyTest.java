package io.kubelix.resource.policy;

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
import static org.junit.jupiter.api.Assertions.assertTrue;

class PodDisruptionBudgetStrategyTest {
    private static final RequestContext CTX = RequestContext.system("default");
    private static final ObjectMapper MAPPER = new ObjectMapper().configure(JsonParser.Feature.ALLOW_SINGLE_QUOTES, true);
    private final PodDisruptionBudgetStrategy strategy = new PodDisruptionBudgetStrategy();

    private static ObjectNode json(String json) {
        try {
            return (ObjectNode) MAPPER.readTree(json.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    /** What {@code kubectl create pdb <name> --selector=app=rails} sends, with {@code bounds} in the spec. */
    private static ObjectNode pdb(String bounds) {
        return json("{'apiVersion':'policy/v1','kind':'PodDisruptionBudget','metadata':{'name':'rails'},'spec':{" + bounds
                + (bounds.isEmpty() ? "" : ",") + "'selector':{'matchLabels':{'app':'rails'}}},'status':{'currentHealthy':0,"
                + "'desiredHealthy':0,'disruptionsAllowed':0,'expectedPods':0}}");
    }

    /** The printed row but AGE, which the Table builder renders. */
    private static List<Object> row(ObjectNode pdb) {
        return PolicyRESTStorageProvider.podDisruptionBudgetColumns().stream().filter(c -> !c.isAge())
                .map(c -> c.cell().apply(pdb)).toList();
    }

    private List<String> create(ObjectNode p) {
        strategy.prepareForCreate(CTX, p);
        return strategy.validate(CTX, p).stream().map(FieldError::message).toList();
    }

    @Test
    void aBudgetStartsWithAZeroStatus() {
        ObjectNode p = pdb("'minAvailable':1");
        p.set("status", json("{'disruptionsAllowed':5}"));
        assertEquals(List.of(), create(p));
        assertEquals(json("{'disruptionsAllowed':0,'currentHealthy':0,'desiredHealthy':0,'expectedPods':0}"), p.path("status"));
        assertEquals(List.of(), create(pdb("'maxUnavailable':'50%'")));
    }

    @Test
    void minAvailableAndMaxUnavailableAreExclusive() {
        List<String> errs = create(pdb("'minAvailable':1,'maxUnavailable':1"));
        assertEquals(1, errs.size(), errs::toString);
        assertTrue(errs.get(0).startsWith("spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:"), errs::toString);
        assertTrue(errs.get(0).endsWith(": minAvailable and maxUnavailable cannot be both set"), errs::toString);
    }

    @Test
    void boundsAreNonNegativeIntegersOrPercentsUpTo100() {
        assertEquals(List.of("spec.minAvailable: Invalid value: -1: must be greater than or equal to 0"),
                create(pdb("'minAvailable':-1")));
        assertEquals(List.of("spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"120%\"}: "
                + "must not be greater than 100%"), create(pdb("'maxUnavailable':'120%'")));
        assertEquals(List.of("spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:\"half\"}: a valid "
                + "percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for "
                + "validation is '[0-9]+%')"), create(pdb("'minAvailable':'half'")));
        assertEquals(List.of("spec.unhealthyPodEvictionPolicy: Unsupported value: \"Never\": supported values: \"AlwaysAllow\", "
                + "\"IfHealthyBudget\""), create(pdb("'minAvailable':1,'unhealthyPodEvictionPolicy':'Never'")));
    }

    @Test
    void theSpecMayChangeButTheStatusOnlyThroughItsSubresource() {
        ObjectNode old = pdb("'minAvailable':1");
        create(old);
        old.set("status", json("{'disruptionsAllowed':2,'currentHealthy':3,'desiredHealthy':1,'expectedPods':3}"));

        ObjectNode put = pdb("'minAvailable':2");
        put.set("status", json("{'disruptionsAllowed':9}"));
        strategy.prepareForUpdate(CTX, put, old);
        assertEquals(List.of(), strategy.validateUpdate(CTX, put, old));
        assertEquals(old.path("status"), put.path("status"));

        ObjectNode status = old.deepCopy();
        ((ObjectNode) status.path("spec")).put("minAvailable", 7);
        status.set("status", json("{'disruptionsAllowed':-1,'currentHealthy':3,'desiredHealthy':1,'expectedPods':3}"));
        PodDisruptionBudgetStrategy.Status s = new PodDisruptionBudgetStrategy.Status();
        s.prepareForUpdate(CTX, status, old);
        assertEquals(List.of("status.disruptionsAllowed: Invalid value: -1: must be greater than or equal to 0"),
                s.validateUpdate(CTX, status, old).stream().map(FieldError::message).toList());
        assertEquals(1, status.path("spec").path("minAvailable").asInt());
    }

    @Test
    void printsMinMaxAndAllowedDisruptions() {
        List<TableColumn> columns = PolicyRESTStorageProvider.podDisruptionBudgetColumns();
        assertEquals(List.of("Name", "Min Available", "Max Unavailable", "Allowed Disruptions", "Age"),
                columns.stream().map(TableColumn::name).toList());
        ObjectNode p = pdb("'minAvailable':1");
        create(p);
        ((ObjectNode) p.path("status")).put("disruptionsAllowed", 2);
        assertEquals(List.of("rails", "1", "N/A", 2L), row(p));
        assertEquals(List.of("rails", "N/A", "25%", 0L), row(pdb("'maxUnavailable':'25%'")));
    }

    @Test
    void budgetsAreNamespacedAsPdb() {
        StoreSpec spec = PolicyRESTStorageProvider.podDisruptionBudgetSpec();
        assertEquals(List.of("pdb"), spec.shortNames());
        assertTrue(spec.namespaced() && spec.generation());
    }
}
