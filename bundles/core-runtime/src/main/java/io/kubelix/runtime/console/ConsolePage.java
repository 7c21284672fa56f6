package io.kubelix.runtime.console;

import io.kubelix.runtime.plugins.KubelixEndpoint;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * The console's page and script at {@code /kubelix/console/}: static files that hold no data, so
 * they are served before authentication, the way a browser must load them to ask for a token. Every
 * piece of data the page shows comes from {@code /kubelix/console/state} ({@link ConsoleStateEndpoint}),
 * which the page asks with that bearer token and which is authenticated and authorized like every
 * other request. Any other path goes to the wrapped handler.
 * <pre>
 * GracefulHandler
 *  └ ConsolePage (GET /kubelix/console/, index.html, console.js, console.css)
 *     └ the filter chain (authentication, authorization, ...) └ Director
 * </pre>
 */
public final class ConsolePage extends Handler.Wrapper {
    public static final String PATH = KubelixEndpoint.ROOT + "/console";

    /** The page's files by path, loaded once from this bundle. */
    private final Map<String, Asset> assets;

    record Asset(String contentType, byte[] bytes) {
    }

    public ConsolePage(Handler next) {
        super(next);
        Asset index = load("index.html", "text/html; charset=utf-8");
        assets = Map.of(PATH + "/", index, PATH + "/index.html", index,
                PATH + "/console.js", load("console.js", "text/javascript; charset=utf-8"),
                PATH + "/console.css", load("console.css", "text/css; charset=utf-8"));
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = Request.getPathInContext(request);
        boolean read = request.getMethod().equals("GET") || request.getMethod().equals("HEAD");
        if (read && path.equals(PATH)) {
            // relative links of the page resolve against the folder
            Response.sendRedirect(request, response, callback, HttpStatus.MOVED_PERMANENTLY_301, PATH + "/", true);
            return true;
        }
        Asset asset = read ? assets.get(path) : null;
        if (asset == null) {
            return super.handle(request, response, callback);
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, asset.contentType());
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        // The page runs only its own script and talks only to this server.
        response.getHeaders().put("Content-Security-Policy",
                "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
                        + "frame-ancestors 'none'");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, asset.bytes().length);
        if (request.getMethod().equals("HEAD")) {
            callback.succeeded();
        } else {
            response.write(true, ByteBuffer.wrap(asset.bytes()), callback);
        }
        return true;
    }

    private static Asset load(String name, String contentType) {
        try (InputStream in = ConsolePage.class.getResourceAsStream("/console/" + name)) {
            if (in == null) {
                throw new IllegalStateException("console/" + name + " is missing from core-runtime");
            }
            return new Asset(contentType, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
