package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.registry.Watcher;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

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

    /**
     * Serves a watch. {@code tracker} registers the open stream with how to end it (when its
     * resource stops being served) and returns how to deregister it.
     */
    static void serve(RequestScope s, Response response, Callback callback, java.util.concurrent.Executor writers,
                      Function<Runnable, Runnable> tracker) throws Exception {
        if (!(s.storage instanceof Watcher watcher)) {
            throw StatusException.methodNotSupported(s.groupResource(), "watch");
        }
        ListOptions options = withInitialEvents(s, s.listOptions(true));
        boolean bookmarks = options.progressNotify();
        Negotiation.Choice choice = Negotiation.choose(s.request);
        if (choice.output() == Negotiation.Output.YAML) {
            throw new StatusException(StatusReason.NOT_ACCEPTABLE, 406,
                    "watch streams are served as application/json", null, null);
        }
        TableConvertor table = choice.output() == Negotiation.Output.TABLE
                ? new TableConvertor(s.storage, choice.tableApiVersion(), s.param("includeObject")) : null;
        long timeoutSeconds = timeoutSeconds(s);
        long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
        options = options.withTimeout(Duration.ofSeconds(timeoutSeconds));

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
        WatchEncoder encoder = new WatchEncoder(s, table, bookmarks);
        if (initialError != null) {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            encoder.encode(WatchEvent.error(initialError), line);
            response.write(true, ByteBuffer.wrap(line.toByteArray()), callback);
            return;
        }
        if (watch.onReady(() -> { })) {
            AsyncWatchStream stream = new AsyncWatchStream(s.request, response, callback, watch, encoder, timeoutSeconds,
                    writers);
            stream.onFinish(tracker.apply(stream::end));
            stream.start();
            return;
        }
        // A watch that cannot notify (an uncached storage) is streamed by this thread.
        Watch w = watch;
        Runnable untrack = tracker.apply(w::close);
        try {
            s.request.addFailureListener(failure -> w.close());
            write(response, new byte[0]);
            stream(w, encoder, response, deadline);
            response.write(true, ByteBuffer.allocate(0), callback);
        } catch (Exception e) {
            LOG.debug("watch {} ended: {}", s.info.path(), e.toString());
            callback.failed(e);
        } finally {
            untrack.run();
            watch.close();
        }
    }

    private static void stream(Watch watch, WatchEncoder encoder, Response response, long deadline) throws Exception {
        while (System.nanoTime() < deadline) {
            WatchEvent ev = watch.next(POLL);
            if (ev == null) {
                if (watch.done()) {
                    return;
                }
                continue;
            }
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            if (encoder.encode(ev, line)) {
                write(response, line.toByteArray());
            }
            if (ev.type() == WatchEvent.Type.ERROR) {
                return;
            }
        }
    }

    private static void write(Response response, byte[] bytes) throws Exception {
        try (Blocker.Callback cb = Blocker.callback()) {
            response.write(false, ByteBuffer.wrap(bytes), cb);
            cb.block();
        }
    }

    /**
     * The WatchList parameter {@code sendInitialEvents}, validated as ValidateListOptions does: it
     * needs {@code resourceVersionMatch=NotOlderThan} and {@code allowWatchBookmarks=true}.
     */
    private static ListOptions withInitialEvents(RequestScope s, ListOptions o) {
        String param = s.param("sendInitialEvents");
        if (param.isEmpty()) {
            return o;
        }
        boolean send = RequestScope.isTrue(param);
        java.util.List<io.kubelix.api.errors.FieldError> errs = new java.util.ArrayList<>();
        if (o.resourceVersionMatch() != io.kubelix.api.storage.ResourceVersionMatch.NOT_OLDER_THAN) {
            errs.add(io.kubelix.api.errors.FieldError.forbidden("resourceVersionMatch",
                    "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan"));
        }
        if (send && !o.progressNotify()) {
            errs.add(io.kubelix.api.errors.FieldError.forbidden("allowWatchBookmarks",
                    "sendInitialEvents requires setting allowWatchBookmarks to true"));
        }
        if (!errs.isEmpty()) {
            throw StatusException.invalid("ListOptions", "meta.k8s.io", "", errs);
        }
        return new ListOptions(o.resourceVersion(), o.resourceVersionMatch(), o.predicate(), o.recursive(), o.limit(),
                o.continueToken(), o.progressNotify(), send);
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
