package io.kubelix.aggregator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.api.server.DelegationTarget;
import io.kubelix.api.server.RequestAttributes;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
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
 * as kube answers it (a plain-text {@code service unavailable}, or the connection error).
 */
final class APIServiceProxy {
    private static final Logger LOG = LoggerFactory.getLogger(APIServiceProxy.class);
    private static final int BUFFER = 16 * 1024;
    /** As long as the server lets an HTTP/2 stream of a watch be quiet (an hour and its margin). */
    static final long WATCH_IDLE_TIMEOUT_MILLIS = 3_900_000;

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

    /** Proxies the request to the APIService's service; completes {@code callback} either way. */
    void proxy(ObjectNode apiService, Request request, Response response, Callback callback) {
        JsonNode available = APIServices.availableCondition(apiService);
        if (available == null || !"True".equals(available.path("status").asText())) {
            error(response, callback, 503, "service unavailable");
            return;
        }
        UserInfo user = RequestAttributes.user(request);
        if (user == null) {
            error(response, callback, 500, "missing user");
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
            error(response, callback, 503, "service unavailable");
            return;
        }
        HttpClient client;
        try {
            client = transports.client(ProxyTransports.Key.of(apiService));
        } catch (IllegalArgumentException e) {
            error(response, callback, 500, e.getMessage());
            return;
        }
        URI target = URI.create(base + request.getHttpURI().getPath()
                + (request.getHttpURI().getQuery() == null ? "" : "?" + request.getHttpURI().getQuery()));
        HttpResponse<InputStream> upstream;
        try {
            upstream = client.send(newRequest(target, request, user), HttpResponse.BodyHandlers.ofInputStream());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            error(response, callback, 503, "context canceled");
            return;
        } catch (IOException e) {
            LOG.info("proxying {} {} to {} failed: {}", request.getMethod(), request.getHttpURI().getPath(), target, e.toString());
            error(response, callback, 503, describe(e, target));
            return;
        }
        RequestInfo info = RequestAttributes.requestInfo(request);
        if (info != null && info.verb().equals("watch")) {
            streamQuietly(request, response);
        }
        InputStream body = upstream.body();
        // A client that goes away (an HTTP/2 stream reset, a closed connection) ends the relay at once,
        // even while the extension server has nothing to send.
        request.addFailureListener(failure -> closeQuietly(body));
        relay(upstream, response, callback);
    }

    /**
     * A watch may be quiet for as long as it lasts: an HTTP/1.1 connection, which Jetty closes after
     * its idle timeout, gets the time an HTTP/2 stream has, and is closed when the watch ends.
     */
    private static void streamQuietly(Request request, Response response) {
        if (request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_1_1) {
            EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
            endPoint.setIdleTimeout(Math.max(endPoint.getIdleTimeout(), WATCH_IDLE_TIMEOUT_MILLIS));
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
        }
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            LOG.debug("closing a proxied response: {}", e.toString());
        }
    }

    private static HttpRequest newRequest(URI target, Request request, UserInfo user) {
        HttpRequest.Builder b = HttpRequest.newBuilder(target);
        for (HttpField f : request.getHeaders()) {
            if (!AuthProxyHeaders.dropped(f.getName())) {
                b.header(f.getName(), f.getValue());
            }
        }
        AuthProxyHeaders.set(b, user);
        // The body is streamed as it arrives, as kube's proxy does: the extension server applies its own limits.
        long length = request.getLength();
        String method = request.getMethod();
        boolean unknownLengthBody = length < 0 && (request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING)
                || method.equals("POST") || method.equals("PUT") || method.equals("PATCH"));
        if (length == 0 || length < 0 && !unknownLengthBody) {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            HttpRequest.BodyPublisher stream = HttpRequest.BodyPublishers.ofInputStream(
                    () -> Content.Source.asInputStream(request));
            b.method(method, length > 0 ? HttpRequest.BodyPublishers.fromPublisher(stream, length) : stream);
        }
        return b.build();
    }

    /** Writes the upstream status and headers, then its body as it arrives, flushing every read. */
    private static void relay(HttpResponse<InputStream> upstream, Response response, Callback callback) {
        response.setStatus(upstream.statusCode());
        for (Map.Entry<String, List<String>> h : upstream.headers().map().entrySet()) {
            String name = h.getKey();
            if (name.startsWith(":") || AuthProxyHeaders.HopByHop.is(name.toLowerCase(Locale.ROOT))) {
                continue;
            }
            for (String value : h.getValue()) {
                response.getHeaders().add(name, value);
            }
        }
        try (InputStream in = upstream.body(); OutputStream out = Content.Sink.asOutputStream(response)) {
            byte[] buffer = new byte[BUFFER];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // The client went away (a watch ended) or the extension server did: the response ends here.
            LOG.debug("proxied response ended early: {}", e.toString());
            callback.failed(e);
            return;
        }
        callback.succeeded();
    }

    /** An error as Go's http.Error writes it: plain text and a newline. */
    static void error(Response response, Callback callback, int code, String message) {
        response.setStatus(code);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.write(true, StandardCharsets.UTF_8.encode(message + "\n"), callback);
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
