package io.kubelix.support.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.testing.informer.FakeInformer;
import org.junit.jupiter.api.Test;

import java.net.URI;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WebhookTargetTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Every service is missing. */
    private static final ServiceResolver NONE = new ServiceResolver(
            new FakeInformer(new GroupVersionResource("", "v1", "services")).lister(),
            new FakeInformer(new GroupVersionResource("discovery.k8s.io", "v1", "endpointslices")).lister());

    @Test
    void urlIsConnectedShownAndCheckedAsItIs() throws Exception {
        ObjectNode cc = JSON.createObjectNode().put("url", "https://[::1]:8443/convert");

        WebhookTarget target = WebhookTarget.of(cc, NONE);

        assertEquals(new WebhookTarget(URI.create("https://[::1]:8443/convert"), "https://[::1]:8443/convert", "::1"), target);
    }

    @Test
    void unresolvedServiceIsShownAsKubeNamesIt() {
        ObjectNode cc = JSON.createObjectNode();
        cc.putObject("service").put("namespace", "hooks").put("name", "webhook").put("path", "/convert");

        WebhookTarget.UnresolvedService e = assertThrows(WebhookTarget.UnresolvedService.class,
                () -> WebhookTarget.of(cc, NONE));

        assertEquals("https://webhook.hooks.svc:443/convert", e.shown());
        assertEquals("service \"webhook\" not found", e.getMessage());
    }
}
