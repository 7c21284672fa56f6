package io.kubelix.support.cel;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CEL engine on the kinds of rules kube's CRD validation and admission policies run. */
class CelExpressionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CelEnvironment ENV = CelEnvironment.builder()
            .variable("self", CelEnvironment.Type.DYN)
            .variable("oldSelf", CelEnvironment.Type.DYN)
            .build();

    private static Object self(String json) throws Exception {
        return JSON.readTree(json.replace('\'', '"'));
    }

    @Test
    void rulesOverJsonObjects() throws Exception {
        CelExpression rule = ENV.compile("self.replicas <= self.maxReplicas");
        assertTrue(rule.evaluateBoolean(Map.of("self", self("{'replicas':3,'maxReplicas':5}")), CelEnvironment.PER_CALL_COST_LIMIT));
        assertFalse(rule.evaluateBoolean(Map.of("self", self("{'replicas':6,'maxReplicas':5}")), CelEnvironment.PER_CALL_COST_LIMIT));
        assertEquals("bool", rule.resultType());
    }

    @Test
    void macrosStringsAndTransitionRules() throws Exception {
        Map<String, Object> vars = Map.of("self", self("{'names':['a','bb'],'image':'nginx:1.25'}"),
                "oldSelf", self("{'names':['a'],'image':'nginx:1.24'}"));
        assertTrue(ENV.compile("self.names.all(n, n.size() < 3)").evaluateBoolean(vars, 1000));
        assertTrue(ENV.compile("has(self.image) && self.image.startsWith('nginx:')").evaluateBoolean(vars, 1000));
        assertTrue(ENV.compile("self.image.split(':')[1] != oldSelf.image.split(':')[1]").evaluateBoolean(vars, 1000));
        assertTrue(ENV.compile("self.names.size() >= oldSelf.names.size()").evaluateBoolean(vars, 1000));
        assertEquals("image nginx:1.25 has 2 names", ENV.compile("'image ' + self.image + ' has ' + string(self.names.size()) + ' names'")
                .evaluate(vars, 1000).value());
    }

    @Test
    void compileErrorsAndRuntimeErrors() throws Exception {
        CelCompileException bad = assertThrows(CelCompileException.class, () -> ENV.compile("self.replicas <="));
        assertTrue(bad.getMessage().contains("<input>:1:17: mismatched input '<EOF>'"), bad.getMessage());
        assertThrows(CelCompileException.class, () -> ENV.compile("unknown > 1"));
        CelEvaluationError missing = assertThrows(CelEvaluationError.class,
                () -> ENV.compile("self.missing > 1").evaluate(Map.of("self", self("{}")), 1000));
        assertTrue(missing.getMessage().contains("no such key: missing"), missing.getMessage());
        assertFalse(missing.costLimitExceeded());
    }

    @Test
    void kubesLibrariesOfPlainValues() throws Exception {
        Map<String, Object> vars = Map.of("self", self("{'list':[1,2,3],'s':'a1b22c333'}"));
        assertEquals("1", ENV.compile("self.s.find('[0-9]+')").evaluate(vars, 1000).value());
        assertEquals(List.of("1", "22", "333"), ENV.compile("self.s.findAll('[0-9]+')").evaluate(vars, 1000).value());
        assertEquals(List.of("1", "22"), ENV.compile("self.s.findAll('[0-9]+', 2)").evaluate(vars, 1000).value());
        assertTrue(ENV.compile("self.list.isSorted() && self.list.sum() == 6 && self.list.min() == 1 && self.list.max() == 3 "
                + "&& self.list.indexOf(2) == 1 && self.list.lastIndexOf(9) == -1").evaluateBoolean(vars, 1000));
        assertTrue(ENV.compile("isURL('https://example.com/x') && !isURL('example com') && isIP('10.0.0.1') && isIP('fd00::1') "
                + "&& !isIP('10.0.0.256') && isCIDR('10.0.0.0/8') && !isCIDR('10.0.0.0') && isQuantity('500Mi') "
                + "&& isQuantity('1.5') && !isQuantity('5 apples')").evaluateBoolean(vars, 1000));
    }

    @Test
    void aRunStopsAtItsCostLimit() throws Exception {
        CelExpression loop = ENV.compile("self.all(x, self.all(y, x + y >= 0))");
        Object big = self("[" + "1,".repeat(999) + "1]");
        CelEvaluationError e = assertThrows(CelEvaluationError.class, () -> loop.evaluate(Map.of("self", big), 10_000));
        assertTrue(e.costLimitExceeded());
        assertEquals("operation cancelled: actual cost limit exceeded", e.getMessage());
        assertTrue(loop.evaluate(Map.of("self", self("[1,2]")), 10_000).cost() < 100);
    }
}
