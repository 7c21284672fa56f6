package io.kubelix.support.cel;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube's authorizer library: the checks an expression builds reach the checker as asked. */
class CelAuthorizerTest {
    private final List<CelAuthorizer.Check> asked = new ArrayList<>();
    /** Allows only creating deployments (not a subresource) in namespace "ok", and GET /healthz; anything for a service account. */
    private final CelAuthorizer authorizer = new CelAuthorizer((check, serviceAccount) -> {
        asked.add(check);
        if (serviceAccount != null) {
            return new CelAuthorizer.Decision(true, "service accounts may", "");
        }
        boolean allowed = check.path() == null
                ? "apps".equals(check.group()) && "deployments".equals(check.resource()) && check.subresource().isEmpty()
                && "ok".equals(check.namespace())
                && "create".equals(check.verb())
                : "/healthz".equals(check.path()) && "get".equals(check.verb());
        return new CelAuthorizer.Decision(allowed, allowed ? "allowed by the test" : "", "");
    });
    private final CelEnvironment env = CelEnvironment.builder()
            .variable("authorizer", CelEnvironment.Type.AUTHORIZER)
            .variable("authorizer.requestResource", CelEnvironment.Type.RESOURCE_CHECK)
            .build();

    private Object eval(String expression) throws Exception {
        return env.compile(expression).evaluate(Map.of("authorizer", authorizer,
                "authorizer.requestResource", CelAuthorizer.ResourceCheck.of(authorizer, "apps", "deployments", "scale",
                        "ok", "web")), CelEnvironment.PER_CALL_COST_LIMIT).value();
    }

    @Test
    void resourceChecksCarryWhatTheExpressionNamed() throws Exception {
        assertEquals(true, eval("authorizer.group('apps').resource('deployments').namespace('ok').check('create').allowed()"));
        assertEquals(false, eval("authorizer.group('apps').resource('deployments').namespace('other').check('create').allowed()"));
        assertEquals(new CelAuthorizer.Check(null, null, "apps", "deployments", "", "other", "", "create"), asked.get(1));
        asked.clear();
        eval("authorizer.group('apps').resource('deployments').subresource('status').namespace('ns').name('web').check('update').allowed()");
        assertEquals(List.of(new CelAuthorizer.Check(null, null, "apps", "deployments", "status", "ns", "web", "update")), asked);
    }

    @Test
    void pathChecksDecisionsAndServiceAccounts() throws Exception {
        assertEquals(true, eval("authorizer.path('/healthz').check('get').allowed()"));
        assertEquals("allowed by the test", eval("authorizer.path('/healthz').check('get').reason()"));
        assertEquals(false, eval("authorizer.path('/metrics').check('get').errored()"));
        assertEquals(true, eval("authorizer.serviceAccount('kube-system', 'gc').group('').resource('pods').check('delete').allowed()"));
        assertEquals("system:serviceaccount:kube-system:gc", asked.get(asked.size() - 1).user());
    }

    @Test
    void theRequestResourceIsTheResourceBeingAdmitted() throws Exception {
        assertFalse((Boolean) eval("authorizer.requestResource.check('create').allowed()"));
        CelAuthorizer.Check last = asked.get(asked.size() - 1);
        assertEquals("scale", last.subresource());
        assertEquals("web", last.name());
        assertTrue((Boolean) eval("authorizer.requestResource.subresource('').check('create').allowed()"));
    }
}
