package io.kubelix.runtime.server.filters;

import io.kubelix.api.request.UserInfo;
import io.kubelix.runtime.metrics.RequestMetrics;
import io.kubelix.runtime.metrics.ServerMetrics;
import io.kubelix.runtime.request.Requests;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * One filter on real HTTP, between WithPanicRecovery and WithRequestInfo outside and the test's
 * handler inside; each request is made by the user its {@code X-Test-User} header names, in the
 * groups of {@code X-Test-Groups}.
 */
final class FilterServer implements AutoCloseable {
    final ServerMetrics metrics = new ServerMetrics();
    private final Server server = new Server();
    private final HttpClient client = HttpClient.newHttpClient();
    private final URI base;

    /** The filter under test, around {@code next}, recording into {@code metrics}. */
    @FunctionalInterface
    interface Filter {
        Handler wrap(Handler next, RequestMetrics metrics);
    }

    FilterServer(Filter filter, Handler handler) throws Exception {
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        Handler user = new Handler.Wrapper(filter.wrap(handler, new RequestMetrics(metrics))) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String groups = request.getHeaders().get("X-Test-Groups");
                Requests.setUser(request, new UserInfo(String.valueOf(request.getHeaders().get("X-Test-User")), "",
                        groups == null ? List.of() : List.of(groups.split(",")), Map.of()));
                return super.handle(request, response, callback);
            }
        };
        server.setHandler(new WithPanicRecovery(new WithRequestInfo(user)));
        server.start();
        base = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    HttpResponse<String> send(String method, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path))
                .method(method, HttpRequest.BodyPublishers.ofString(method.equals("GET") ? "" : "{}"));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The metrics as {@code /metrics} writes them. */
    String scrape() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, metrics.registry().scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
