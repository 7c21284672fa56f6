package io.kubelix.support.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.GenericLister;
import io.kubelix.api.informer.GenericNamespaceLister;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WebhookTargetTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Listers of no objects: every service is missing. */
    private static final GenericLister EMPTY = new GenericLister() {
        @Override
        public List<ObjectNode> list() {
            return List.of();
        }

        @Override
        public Optional<ObjectNode> get(String name) {
            return Optional.empty();
        }

        @Override
        public GenericNamespaceLister byNamespace(String namespace) {
            return new GenericNamespaceLister() {
                @Override
                public List<ObjectNode> list() {
                    return List.of();
                }

                @Override
                public Optional<ObjectNode> get(String name) {
                    return Optional.empty();
                }
            };
        }
    };

    @Test
    void urlIsConnectedShownAndCheckedAsItIs() throws Exception {
        ObjectNode cc = JSON.createObjectNode().put("url", "https://[::1]:8443/convert");

        WebhookTarget target = WebhookTarget.of(cc, new ServiceResolver(EMPTY, EMPTY));

        assertEquals(new WebhookTarget(URI.create("https://[::1]:8443/convert"), "https://[::1]:8443/convert", "::1"), target);
    }

    @Test
    void unresolvedServiceIsShownAsKubeNamesIt() {
        ObjectNode cc = JSON.createObjectNode();
        cc.putObject("service").put("namespace", "hooks").put("name", "webhook").put("path", "/convert");

        WebhookTarget.UnresolvedService e = assertThrows(WebhookTarget.UnresolvedService.class,
                () -> WebhookTarget.of(cc, new ServiceResolver(EMPTY, EMPTY)));

        assertEquals("https://webhook.hooks.svc:443/convert", e.shown());
        assertEquals("service \"webhook\" not found", e.getMessage());
    }
}
