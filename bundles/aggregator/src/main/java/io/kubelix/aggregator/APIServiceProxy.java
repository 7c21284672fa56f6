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
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

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
        int from = 0;
        while (from < path.length() && path.charAt(from) == '/') {
            from++;
        }
        String[] parts = path.substring(from).split("/", 4);
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
        if (UpgradeAwareProxy.isUpgradeRequest(request)) {
            proxyUpgrade(base, tls, request, user, response);
            return;
        }
        try {
            roundTrip(base, tls, request, user, response);
        } catch (IllegalArgumentException e) {
            error(response, 500, e.getMessage());
        }
    }

    private void proxyUpgrade(URI base, ProxyTransports.Key tls, APIRequest request, UserInfo user, APIResponse response) {
        try {
            // kube sends the service's DNS name as the TLS server name, unless the server is not verified.
            UpgradeAwareProxy.proxy(base, transports.sslContext(tls), tls.insecure() ? "" : tls.serverName(),
                    request, user, response);
        } catch (IllegalArgumentException e) {
            error(response, 500, e.getMessage());
        } catch (IOException e) {
            LOG.info("proxying the upgrade {} {} to {} failed: {}", request.method(), request.rawPath(), base, e.toString());
            error(response, 503, describe(e, base));
        }
    }

    /**
     * Sends the request on a kept-alive connection and relays the answer as it arrives. A
     * connection the extension server closed while it was idle is replaced once, when the request
     * has no body to send again (Go's transport retries such a request too).
     */
    private void roundTrip(URI base, ProxyTransports.Key tls, APIRequest request, UserInfo user, APIResponse response) {
        String host = base.getHost();
        int port = base.getPort();
        long length = bodyLength(request);
        String head = RequestHead.of(base, request, user, false, length);
        BackendConnection backend = null;
        ResponseHead answer = null;
        IOException failure = null;
        for (int attempt = 0; answer == null && attempt < 2; attempt++) {
            backend = null;
            try {
                backend = attempt == 0 ? transports.connection(tls, host, port) : transports.newConnection(tls, host, port);
                backend.writeHead(head);
                if (length != 0) {
                    backend.writeBody(request.body(), length);
                } else {
                    backend.output().flush();
                }
                answer = ResponseHead.read(backend.input());
            } catch (IOException e) {
                failure = e;
                if (backend != null) {
                    backend.close();
                }
                if (backend == null || !backend.reused() || length != 0) {
                    break;
                }
            }
        }
        if (answer == null) {
            LOG.info("proxying {} {} to {} failed: {}", request.method(), request.rawPath(), base, failure.toString());
            error(response, 503, describe(failure, base));
            return;
        }
        RequestInfo info = request.requestInfo();
        if (info != null && info.verb().equals("watch")) {
            // A watch may be quiet for as long as it lasts.
            response.longRunning();
        }
        // A client that goes away (an HTTP/2 stream reset, a closed connection) ends the relay at once,
        // even while the extension server has nothing to send; whichever comes first, the end of the
        // exchange or the client's failure, decides what becomes of the connection.
        AtomicBoolean ended = new AtomicBoolean();
        BackendConnection connection = backend;
        request.addFailureListener(f -> {
            if (ended.compareAndSet(false, true)) {
                connection.close();
            }
        });
        boolean reusable = relay(answer, connection, request.method().equals("HEAD"), response);
        if (ended.compareAndSet(false, true)) {
            if (reusable) {
                transports.release(tls, host, port, connection);
            } else {
                connection.close();
            }
        }
    }

    /** The length of the body to send: 0 for none, -1 for one of unknown length (sent chunked). */
    private static long bodyLength(APIRequest request) {
        // The body is streamed as it arrives, as kube's proxy does: the extension server applies its own limits.
        long length = request.contentLength();
        if (length >= 0) {
            return length;
        }
        String method = request.method();
        boolean unknownLengthBody = request.headers().containsKey("Transfer-Encoding")
                || method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
        return unknownLengthBody ? -1 : 0;
    }

    /**
     * Writes the answer's status and headers, then its body as it arrives.
     *
     * @return whether the connection may carry another exchange
     */
    private static boolean relay(ResponseHead answer, BackendConnection backend, boolean head, APIResponse response) {
        response.setStatus(answer.status());
        for (String[] h : answer.headers()) {
            if (!AuthProxyHeaders.HopByHop.is(h[0].toLowerCase(Locale.ROOT))) {
                response.addHeader(h[0], h[1]);
            }
        }
        int status = answer.status();
        boolean bodyless = head || status / 100 == 1 || status == 204 || status == 304;
        boolean reusable;
        try {
            reusable = backend.relayBody(answer, bodyless, response.body());
        } catch (IOException | NumberFormatException e) {
            // The client went away (a watch ended) or the extension server did: the response ends here.
            LOG.debug("proxied response ended early: {}", e.toString());
            response.fail(e);
            return false;
        }
        response.complete();
        return reusable;
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
        if (e instanceof HttpTimeoutException || e instanceof SocketTimeoutException) {
            return "context deadline exceeded";
        }
        if (e instanceof ConnectException) {
            return "dial tcp " + target.getHost() + ":" + target.getPort() + ": connect: connection refused";
        }
        return e.getMessage() == null ? e.toString() : e.getMessage();
    }
}
