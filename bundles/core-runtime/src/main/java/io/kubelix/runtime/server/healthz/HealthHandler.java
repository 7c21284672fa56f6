package io.kubelix.runtime.server.healthz;

import io.kubelix.api.server.HealthChecker;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One of {@code /healthz}, {@code /livez}, {@code /readyz} (healthz.InstallHandler): runs the named
 * checks, answers {@code ok} or 500, lists each check with {@code ?verbose}, skips checks named by
 * {@code ?exclude=}, and serves one check at {@code /<endpoint>/<name>}.
 */
public final class HealthHandler {
    private static final Logger LOG = LoggerFactory.getLogger(HealthHandler.class);

    private final String endpoint;
    private final Supplier<List<HealthChecker>> checks;

    public HealthHandler(String endpoint, Supplier<List<HealthChecker>> checks) {
        this.endpoint = endpoint;
        this.checks = checks;
    }

    /** Handles {@code /<endpoint>} and {@code /<endpoint>/<check>}; returns false for other paths. */
    public boolean handle(Request request, Response response, Callback callback, String path) {
        String root = "/" + endpoint;
        if (path.equals(root) || path.equals(root + "/")) {
            all(request, response, callback);
            return true;
        }
        if (path.startsWith(root + "/")) {
            String name = path.substring(root.length() + 1);
            for (HealthChecker c : checks.get()) {
                if (c.name().equals(name)) {
                    String failure = run(c);
                    if (failure == null) {
                        text(response, callback, 200, "ok");
                    } else {
                        text(response, callback, 500, "internal server error: " + failure + "\n");
                    }
                    return true;
                }
            }
        }
        return false;
    }

    private void all(Request request, Response response, Callback callback) {
        Fields query = Request.extractQueryParameters(request);
        boolean verbose = query.get("verbose") != null;
        List<String> exclude = query.getValues("exclude");
        Set<String> excluded = exclude == null ? new HashSet<>() : new HashSet<>(exclude);
        StringBuilder out = new StringBuilder();
        List<String> failed = new ArrayList<>();
        for (HealthChecker c : checks.get()) {
            if (excluded.remove(c.name())) {
                out.append("[+]").append(c.name()).append(" excluded: ok\n");
                continue;
            }
            String failure = run(c);
            if (failure == null) {
                out.append("[+]").append(c.name()).append(" ok\n");
            } else {
                failed.add(c.name());
                out.append("[-]").append(c.name()).append(" failed: reason withheld\n");
            }
        }
        for (String unknown : excluded) {
            out.append("warn: some health checks cannot be excluded: no matches for \"").append(unknown).append("\"\n");
        }
        if (!failed.isEmpty()) {
            // Probes fail all the time while a server starts or stops (load balancers ask every second or so):
            // not worth an info line each. The server says once when it is ready, and why not when it is slow to be.
            LOG.debug("{} check failed: {}", endpoint, String.join(",", failed));
            out.append(endpoint).append(" check failed\n");
            text(response, callback, 500, out.toString());
        } else if (verbose) {
            out.append(endpoint).append(" check passed\n");
            text(response, callback, 200, out.toString());
        } else {
            text(response, callback, 200, "ok");
        }
    }

    private static String run(HealthChecker c) {
        try {
            c.check();
            return null;
        } catch (Exception e) {
            return e.getMessage() == null ? e.toString() : e.getMessage();
        }
    }

    private static void text(Response response, Callback callback, int code, String body) {
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        Responses.write(response, callback, code, "text/plain; charset=utf-8", body.getBytes(StandardCharsets.UTF_8));
    }
}
