package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersion;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class AutoRegistrationControllerTest {

    @Test
    void kubesGroupsGetKubesPrioritiesAndOthersThoseOfCRDs() {
        Map<String, ObjectNode> desired = AutoRegistrationController.desired(List.of(new GroupVersion("", "v1"),
                new GroupVersion("apps", "v1"), new GroupVersion("autoscaling", "v2"), new GroupVersion("stable.example.com", "v1")));
        assertEquals(List.of("v1.", "v1.apps", "v2.autoscaling", "v1.stable.example.com"), List.copyOf(desired.keySet()));
        ObjectNode apps = desired.get("v1.apps");
        assertEquals(17800, apps.path("spec").path("groupPriorityMinimum").asInt());
        assertEquals(15, apps.path("spec").path("versionPriority").asInt());
        assertEquals("onstart", apps.path("metadata").path("labels").path(AutoRegistrationController.AUTOMANAGED).asText());
        assertEquals(30, desired.get("v2.autoscaling").path("spec").path("versionPriority").asInt());
        ObjectNode crd = desired.get("v1.stable.example.com");
        assertEquals(1000, crd.path("spec").path("groupPriorityMinimum").asInt());
        assertEquals(100, crd.path("spec").path("versionPriority").asInt());
        assertEquals("true", crd.path("metadata").path("labels").path(AutoRegistrationController.AUTOMANAGED).asText());
    }

    @Test
    void theAPIServicesItMakesAreValidLocalOnes() {
        APIServiceStrategy strategy = new APIServiceStrategy(Clock.systemUTC());
        for (ObjectNode a : AutoRegistrationController.desired(List.of(new GroupVersion("", "v1"),
                new GroupVersion("apiregistration.k8s.io", "v1"), new GroupVersion("sample.kubelix.io", "v1"))).values()) {
            strategy.prepareForCreate(RequestContext.system(""), a);
            assertEquals(List.of(), strategy.validate(RequestContext.system(""), a), a::toString);
            assertEquals("Local", APIServices.availableCondition(a).path("reason").asText());
        }
    }
}
