package io.kubelix.resource.core.quota;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.RESTCreateStrategy;
import io.kubelix.api.request.RequestContext;
import io.kubelix.resource.core.testing.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class QuotaStrategyTest {
    private static final RequestContext CTX = RequestContext.system("default");

    private static List<String> errors(RESTCreateStrategy strategy, ObjectNode obj) {
        strategy.prepareForCreate(CTX, obj);
        return strategy.validate(CTX, obj).stream().map(FieldError::message).toList();
    }

    @Test
    void quotasHoldStandardResourcesWithNonNegativeAmountsAndStartWithoutStatus() {
        ResourceQuotaStrategy quota = new ResourceQuotaStrategy();
        ObjectNode q = Json.obj("{'metadata':{'name':'q'},'spec':{'hard':{'pods':'10','requests.cpu':'2',"
                + "'count/deployments.apps':'3'}},'status':{'used':{'pods':'99'}}}");
        assertTrue(errors(quota, q).isEmpty());
        assertTrue(q.path("status").isMissingNode());
        assertEquals(List.of("spec.hard[pods]: Invalid value: \"-1\": must be greater than or equal to 0"),
                errors(quota, Json.obj("{'spec':{'hard':{'pods':'-1'}}}")));
        assertEquals(List.of("spec.hard[widgets]: Invalid value: \"widgets\": must be a standard resource for quota"),
                errors(quota, Json.obj("{'spec':{'hard':{'widgets':'1'}}}")));
        assertEquals(List.of("spec.hard[pods]: Invalid value: \"1500m\": must be an integer"),
                errors(quota, Json.obj("{'spec':{'hard':{'pods':'1500m'}}}")));
        ObjectNode withStatus = Json.obj("{'status':{'hard':{'pods':'10','limits.cpu':'2','requests.memory':'1Gi'},"
                + "'used':{'pods':'3','limits.cpu':'500m'}}}");
        assertEquals("pods: 3/10, requests.memory: 0/1Gi", QuotaPrinters.usage(withStatus, false));
        assertEquals("limits.cpu: 500m/2", QuotaPrinters.usage(withStatus, true));
    }

    @Test
    void limitRangesOrderTheirAmounts() {
        LimitRangeStrategy limits = new LimitRangeStrategy();
        assertTrue(errors(limits, Json.obj("{'spec':{'limits':[{'type':'Container','min':{'cpu':'100m'},'max':{'cpu':'1'},"
                + "'default':{'cpu':'500m'},'defaultRequest':{'cpu':'200m'},'maxLimitRequestRatio':{'cpu':'5'}}]}}")).isEmpty());
        assertEquals(List.of("spec.limits[0].min[cpu]: Invalid value: \"2\": min value 2 is greater than max value 1"),
                errors(limits, Json.obj("{'spec':{'limits':[{'type':'Container','min':{'cpu':'2'},'max':{'cpu':'1'}}]}}")));
        assertEquals(List.of("spec.limits[0].default[memory]: Invalid value: \"2Gi\": default value 2Gi is greater than max value 1Gi"),
                errors(limits, Json.obj("{'spec':{'limits':[{'type':'Container','max':{'memory':'1Gi'},'default':{'memory':'2Gi'}}]}}")));
        assertEquals(List.of("spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'",
                        "spec.limits[1].type: Duplicate value: \"Pod\""),
                errors(limits, Json.obj("{'spec':{'limits':[{'type':'Pod','default':{'cpu':'1'}},{'type':'Pod'}]}}")));
        assertEquals(List.of("spec.limits[0].type: Unsupported value: \"Node\": supported values: \"Container\", "
                + "\"PersistentVolumeClaim\", \"Pod\""), errors(limits, Json.obj("{'spec':{'limits':[{'type':'Node'}]}}")));
        assertEquals(List.of("spec.limits[0].limits: Required value: either minimum or maximum storage value is required, "
                + "but neither was provided"), errors(limits, Json.obj("{'spec':{'limits':[{'type':'PersistentVolumeClaim',"
                + "'default':{'storage':'1Gi'}}]}}")));
        assertEquals(List.of("spec.limits[0].max[pods]: Invalid value: \"pods\": must be a standard resource for containers"),
                errors(limits, Json.obj("{'spec':{'limits':[{'type':'Container','max':{'pods':'1'}}]}}")));
        assertEquals(List.of("spec.limits[0].max[widgets]: Invalid value: \"widgets\": must be a standard resource type or "
                + "fully qualified"), errors(limits, Json.obj("{'spec':{'limits':[{'type':'PersistentVolumeClaim',"
                + "'max':{'storage':'1Gi','widgets':'1'}}]}}")));
    }
}
