package io.kubelix.runtime.console;

import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The console's static files are served without credentials; everything else goes to the authenticated chain. */
class ConsolePageTest {
    private Server server;
    private LocalConnector connector;

    @BeforeEach
    void start() throws Exception {
        server = new Server();
        connector = new LocalConnector(server);
        server.addConnector(connector);
        // stands for the filter chain: a request without credentials is refused
        server.setHandler(new ConsolePage(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(401);
                callback.succeeded();
                return true;
            }
        }));
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    private HttpTester.Response request(String method, String path) throws Exception {
        return HttpTester.parseResponse(connector.getResponse(method + " " + path + " HTTP/1.1\r\nHost: test\r\n"
                + "Connection: close\r\n\r\n"));
    }

    @Test
    void thePageAndItsScriptNeedNoCredentials() throws Exception {
        HttpTester.Response page = request("GET", "/kubelix/console/");
        assertEquals(200, page.getStatus());
        assertTrue(page.get("Content-Type").startsWith("text/html"), page.get("Content-Type"));
        assertTrue(page.getContent().contains("<script src=\"console.js\""), page.getContent());
        assertTrue(page.get("Content-Security-Policy").contains("script-src 'self'"));

        HttpTester.Response script = request("GET", "/kubelix/console/console.js");
        assertEquals(200, script.getStatus());
        assertTrue(script.getContent().contains("sessionStorage"));
        assertEquals(200, request("GET", "/kubelix/console/console.css").getStatus());
    }

    @Test
    void theFolderWithoutItsSlashIsRedirected() throws Exception {
        HttpTester.Response r = request("GET", "/kubelix/console");
        assertEquals(301, r.getStatus());
        assertTrue(r.get("Location").endsWith("/kubelix/console/"), r.get("Location"));
    }

    @Test
    void theDataAndEveryOtherRequestGoThroughTheChain() throws Exception {
        assertEquals(401, request("GET", "/kubelix/console/state").getStatus());
        assertEquals(401, request("GET", "/kubelix/console/other.js").getStatus());
        assertEquals(401, request("POST", "/kubelix/console/").getStatus());
        assertEquals(401, request("GET", "/api/v1/namespaces").getStatus());
    }
}
