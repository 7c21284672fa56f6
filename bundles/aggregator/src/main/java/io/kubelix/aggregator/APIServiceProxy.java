package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.api.server.APIRequest;
import io.kubelix.api.server.APIResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * kube-aggregator's proxyHandler: a request for a group and version whose APIService names a
 * service is sent to that service, as the user the request acts as, and the answer is relayed as
 * it comes (a watch's events, a chunked list's pages: nothing is buffered whole). An APIService
 * that is not {@code Available}, or whose service cannot be resolved or reached, is answered 503
 * as kube answers it (a plain-text {@code service unavailable}, or the connection error). A
 * request to switch protocols is relayed by {@link UpgradeAwareProxy}.
 */
final class APIServiceProxy {
    private static final Logger LOG = LoggerFactory.getLogger(APIServiceProxy.class);
    private static final int BUFFER = 16 * 1024;

    private final SharedIndexInformer apiServices;
    private final ServiceResolver services;
    private final ProxyTransports transports;

    APIServiceProxy(SharedIndexInformer apiServices, ServiceResolver services, ProxyTransports transports) {
        this.apiServices = apiServices;
        this.services = services;
        this.transports = transports;
    }

    /**
     * The remote APIService serving the group and version of an API path, or null when none does
     * (no APIService, a local one, or not a path of a group version).
     */
    ObjectNode remoteAPIServiceFor(String path) {
        String[] parts = path.replaceAll("^/+", "").split("/", 4);
        if (parts.length < 3 || !parts[0].equals("apis") || parts[1].isEmpty() || parts[2].isEmpty()) {
            return null;
        }
        ObjectNode apiService = apiServices.getByKey(parts[2] + "." + parts[1]);
        return apiService == null || APIServices.service(apiService) == null ? null : apiService;
    }

    /** Proxies the request to the APIService's service; ends {@code response} either way. */
    void proxy(ObjectNode apiService, APIRequest request, APIResponse response) {
        JsonNode available = APIServices.availableCondition(apiService);
        if (available == null || !"True".equals(available.path("status").asText())) {
            error(response, 503, "service unavailable");
            return;
        }
        UserInfo user = request.user();
        if (user == null) {
            error(response, 500, "missing user");
            return;
        }
        JsonNode service = APIServices.service(apiService);
        String namespace = service.path("namespace").asText();
        String name = service.path("name").asText();
        URI base;
        try {
            base = services.resolve(namespace, name, service.path("port").asInt(APIServiceStrategy.DEFAULT_SERVICE_PORT));
        } catch (IllegalStateException e) {
            LOG.warn("error resolving {}/{} for APIService {}: {}", namespace, name,
                    apiService.path("metadata").path("name").asText(), e.getMessage());
            error(response, 503, "service unavailable");
            return;
        }
        ProxyTransports.Key tls = ProxyTransports.Key.of(apiService);
        URI target = URI.create(base + request.rawPath() + (request.rawQuery() == null ? "" : "?" + request.rawQuery()));
        if (UpgradeAwareProxy.isUpgradeRequest(request)) {
            proxyUpgrade(target, tls, request, user, response);
            return;
        }
        HttpClient client;
        try {
            client = transports.client(tls);
        } catch (IllegalArgumentException e) {
            error(response, 500, e.getMessage());
            return;
        }
        HttpResponse<InputStream> upstream;
        try {
            upstream = client.send(newRequest(target, request, user), HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error(response, 503, "context canceled");
            return;
        } catch (IOException e) {
            LOG.info("proxying {} {} to {} failed: {}", request.method(), request.rawPath(), target, e.toString());
            error(response, 503, describe(e, target));
            return;
        }
        RequestInfo info = request.requestInfo();
        if (info != null && info.verb().equals("watch")) {
            // A watch may be quiet for as long as it lasts.
            response.longRunning();
        }
        InputStream body = upstream.body();
        // A client that goes away (an HTTP/2 stream reset, a closed connection) ends the relay at once,
        // even while the extension server has nothing to send.
        request.addFailureListener(failure -> closeQuietly(body));
        relay(upstream, response);
    }

    private void proxyUpgrade(URI target, ProxyTransports.Key tls, APIRequest request, UserInfo user, APIResponse response) {
        try {
            // kube sends the service's DNS name as the TLS server name, unless the server is not verified.
            UpgradeAwareProxy.proxy(target, transports.sslContext(tls), tls.insecure() ? "" : tls.serverName(),
                    request, user, response);
        } catch (IllegalArgumentException e) {
            error(response, 500, e.getMessage());
        } catch (IOException e) {
            LOG.info("proxying the upgrade {} {} to {} failed: {}", request.method(), request.rawPath(), target, e.toString());
            error(response, 503, describe(e, target));
        }
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            LOG.debug("closing a proxied response: {}", e.toString());
        }
    }

    private static HttpRequest newRequest(URI target, APIRequest request, UserInfo user) {
        HttpRequest.Builder b = HttpRequest.newBuilder(target);
        for (Map.Entry<String, List<String>> h : request.headers().entrySet()) {
            if (!AuthProxyHeaders.dropped(h.getKey())) {
                h.getValue().forEach(value -> b.header(h.getKey(), value));
            }
        }
        AuthProxyHeaders.set(b, user);
        // The body is streamed as it arrives, as kube's proxy does: the extension server applies its own limits.
        long length = request.contentLength();
        String method = request.method();
        boolean unknownLengthBody = length < 0 && (request.headers().containsKey("Transfer-Encoding")
                || method.equals("POST") || method.equals("PUT") || method.equals("PATCH"));
        if (length == 0 || length < 0 && !unknownLengthBody) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            HttpRequest.BodyPublisher stream = HttpRequest.BodyPublishers.ofInputStream(request::body);
            b.method(method, length > 0 ? HttpRequest.BodyPublishers.fromPublisher(stream, length) : stream);
        }
        return b.build();
    }

    /** Writes the upstream status and headers, then its body as it arrives, flushing every read. */
    private static void relay(HttpResponse<InputStream> upstream, APIResponse response) {
        response.setStatus(upstream.statusCode());
        for (Map.Entry<String, List<String>> h : upstream.headers().map().entrySet()) {
            String name = h.getKey();
            if (name.startsWith(":") || AuthProxyHeaders.HopByHop.is(name.toLowerCase(Locale.ROOT))) {
                continue;
            }
            for (String value : h.getValue()) {
                response.addHeader(name, value);
            }
        }
        OutputStream out = response.body();
        try (InputStream in = upstream.body()) {
            byte[] buffer = new byte[BUFFER];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // The client went away (a watch ended) or the extension server did: the response ends here.
            LOG.debug("proxied response ended early: {}", e.toString());
            response.fail(e);
            return;
        }
        response.complete();
    }

    /** An error as Go's http.Error writes it: plain text and a newline. */
    static void error(APIResponse response, int code, String message) {
        response.setStatus(code);
        response.setHeader("Content-Type", "text/plain; charset=utf-8");
        response.setHeader("X-Content-Type-Options", "nosniff");
        try {
            response.body().write((message + "\n").getBytes(StandardCharsets.UTF_8));
            response.complete();
        } catch (IOException e) {
            response.fail(e);
        }
    }

    /** A failed round trip as Go's transport words the common ones. */
    static String describe(IOException e, URI target) {
        if (e instanceof HttpTimeoutException) {
            return "context deadline exceeded";
        }
        if (e instanceof ConnectException) {
            return "dial tcp " + target.getHost() + ":" + target.getPort() + ": connect: connection refused";
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }
}
