package io.kubelix.resource.core.pod;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import static io.kubelix.resource.core.testing.Json.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pod templates: kube's defaults and validation of the template. */
class PodTemplateStrategyTest {
    private static final RequestContext CTX = RequestContext.system("default");

    @Test
    void podTemplatesAreValidatedAsTemplates() {
        PodTemplateStrategy templates = new PodTemplateStrategy();
        ObjectNode ok = obj("{'metadata':{'name':'t'},'template':{'metadata':{'labels':{'a':'b'}},'spec':{'containers':"
                + "[{'name':'c','image':'busybox:1.36'}]}}}");
        templates.prepareForCreate(CTX, ok);
        assertEquals("IfNotPresent", ok.path("template").path("spec").path("containers").get(0).path("imagePullPolicy").asText());
        assertEquals("ClusterFirst", ok.path("template").path("spec").path("dnsPolicy").asText());
        assertTrue(templates.validate(CTX, ok).isEmpty());
        ObjectNode empty = obj("{'metadata':{'name':'t'}}");
        templates.prepareForCreate(CTX, empty);
        assertTrue(templates.validate(CTX, empty).stream().map(FieldError::message).toList()
                .contains("template.spec.containers: Required value"));
    }
}
