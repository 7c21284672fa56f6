package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.registry.Watcher;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.runtime.codec.Codecs;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * serveWatch: streams a watch as newline-delimited {@code {"type":..,"object":..}} JSON over a
 * chunked response, until {@code timeoutSeconds} (default: a random 30 to 60 minutes, as
 * kube-apiserver spreads re-watches), the client goes away, or the stream ends. A
 * resourceVersion too old for the storage becomes an ERROR event carrying a 410 Status.
 */
final class WatchHandler {
    private static final Logger LOG = LoggerFactory.getLogger(WatchHandler.class);
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final Duration POLL = Duration.ofSeconds(1);
    private static final long MIN_TIMEOUT_SECONDS = 1800;

    private WatchHandler() {
    }

    static void serve(RequestScope s, Response response, Callback callback) throws Exception {
        if (!(s.storage instanceof Watcher watcher)) {
            throw StatusException.methodNotSupported(s.groupResource(), "watch");
        }
        ListOptions options = s.listOptions(true);
        boolean bookmarks = options.progressNotify();
        Negotiation.Choice choice = Negotiation.choose(s.request);
        if (choice.output() == Negotiation.Output.YAML) {
            throw new StatusException(StatusReason.NOT_ACCEPTABLE, 406,
                    "watch streams are served as application/json", null, null);
        }
        TableConvertor table = choice.output() == Negotiation.Output.TABLE
                ? new TableConvertor(s.storage, choice.tableApiVersion(), s.param("includeObject")) : null;
        long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds(s)).toNanos();

        Watch watch;
        StatusException initialError = null;
        try {
            watch = watcher.watch(s.ctx, options);
        } catch (StatusException e) {
            if (e.code() != 410) {
                throw e;
            }
            watch = null;
            initialError = e;
        }

        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache, private");
        Responses.addWarnings(response, s.ctx.warnings());
        try {
            if (initialError != null) {
                write(response, event("ERROR", StatusObjects.failure(initialError)));
            } else {
                Watch w = watch;
                s.request.addFailureListener(failure -> w.close());
                flush(response);
                stream(s, w, response, table, bookmarks, deadline);
            }
            response.write(true, ByteBuffer.allocate(0), callback);
        } catch (Exception e) {
            LOG.debug("watch {} ended: {}", s.info.path(), e.toString());
            callback.failed(e);
        } finally {
            if (watch != null) {
                watch.close();
            }
        }
    }

    private static void stream(RequestScope s, Watch watch, Response response, TableConvertor table, boolean bookmarks,
                               long deadline) throws Exception {
        while (System.nanoTime() < deadline) {
            WatchEvent ev = watch.next(POLL);
            if (ev == null) {
                if (watch.done()) {
                    return;
                }
                continue;
            }
            switch (ev.type()) {
                case BOOKMARK -> {
                    if (bookmarks) {
                        ObjectNode b = F.objectNode();
                        b.put("kind", s.storage.kind());
                        b.put("apiVersion", s.groupVersion.apiVersion());
                        b.putObject("metadata").put("resourceVersion",
                                ev.object().path("metadata").path("resourceVersion").asText(""));
                        write(response, event("BOOKMARK", b));
                    }
                }
                case ERROR -> {
                    write(response, event("ERROR", StatusObjects.failure(ev.error())));
                    return;
                }
                default -> {
                    ObjectNode obj = ResourceHandlers.typed(s, ev.object());
                    ObjectNode out = table == null ? obj : table.table(List.of(obj), F.objectNode()
                            .put("resourceVersion", obj.path("metadata").path("resourceVersion").asText("")));
                    write(response, event(ev.type().name(), out));
                }
            }
        }
    }

    private static ObjectNode event(String type, ObjectNode object) {
        ObjectNode e = F.objectNode();
        e.put("type", type);
        e.set("object", object);
        return e;
    }

    private static void write(Response response, ObjectNode event) throws Exception {
        byte[] json = Codecs.toJson(event);
        byte[] line = new byte[json.length + 1];
        System.arraycopy(json, 0, line, 0, json.length);
        line[json.length] = '\n';
        try (Blocker.Callback cb = Blocker.callback()) {
            response.write(false, ByteBuffer.wrap(line), cb);
            cb.block();
        }
    }

    private static void flush(Response response) throws Exception {
        try (Blocker.Callback cb = Blocker.callback()) {
            response.write(false, ByteBuffer.wrap("".getBytes(StandardCharsets.UTF_8)), cb);
            cb.block();
        }
    }

    private static long timeoutSeconds(RequestScope s) {
        String t = s.param("timeoutSeconds");
        if (!t.isEmpty()) {
            try {
                long v = Long.parseLong(t);
                if (v > 0) {
                    return v;
                }
            } catch (NumberFormatException e) {
                throw StatusException.badRequest("timeoutSeconds: Invalid value: \"" + t + "\": must be an integer");
            }
        }
        return MIN_TIMEOUT_SECONDS + ThreadLocalRandom.current().nextLong(MIN_TIMEOUT_SECONDS);
    }
}
