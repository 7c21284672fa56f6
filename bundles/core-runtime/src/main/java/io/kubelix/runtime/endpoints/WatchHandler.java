package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.Watcher;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.runtime.codec.MediaType;
import io.kubelix.runtime.codec.MediaTypeNegotiation;
import io.kubelix.runtime.codec.protobuf.ProtobufEncoder;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import io.kubelix.runtime.table.TableConvertor;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * serveWatch: streams a watch as newline-delimited {@code {"type":..,"object":..}} JSON over a
 * chunked response (or, when protobuf is negotiated, as length-prefixed WatchEvent messages), or as one WebSocket message per event when the request asks to upgrade, until
 * {@code timeoutSeconds} (default: a random time between {@code --min-request-timeout}, 30 minutes,
 * and twice that, as kube-apiserver spreads re-watches), the client goes away, or the stream ends. A resourceVersion too old for the storage
 * becomes an ERROR event carrying a 410 Status.
 */
final class WatchHandler {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    /** How much longer than its timeout the connection of an HTTP/1.1 watch may be quiet. */
    private static final long IDLE_MARGIN_MILLIS = 60_000;
    /** The longest timeout Go's time.Duration holds in nanoseconds. */
    private static final long MAX_TIMEOUT_SECONDS = Long.MAX_VALUE / 1_000_000_000L;

    private WatchHandler() {
    }

    /**
     * Serves a watch. {@code tracker} registers the open stream with how to end it (when its
     * resource stops being served) and returns how to deregister it.
     */
    static void serve(RequestScope s, Response response, Callback callback, WatchServing serving,
                      Function<Runnable, Runnable> tracker) throws Exception {
        java.util.concurrent.Executor writers = serving.writers();
        WebSocketWatches webSockets = serving.webSockets();
        if (!(s.storage instanceof Watcher watcher)) {
            throw StatusException.methodNotSupported(s.groupResource(), "watch");
        }
        ListOptions options = withInitialEvents(s, s.listOptions(true));
        boolean bookmarks = options.progressNotify();
        Negotiation.Choice choice = Negotiation.choose(s);
        if (choice.output() == Negotiation.Output.YAML) {
            // YAML has no stream form: kube's stream negotiation refuses it.
            throw MediaTypeNegotiation.streamNotAcceptable();
        }
        boolean protobuf = choice.output() == Negotiation.Output.PROTOBUF;
        TableConvertor table = choice.output() == Negotiation.Output.TABLE
                ? new TableConvertor(s.storage, choice.tableApiVersion(), s.param("includeObject")) : null;
        long timeoutSeconds = timeoutSeconds(s, serving.minRequestTimeoutSeconds());
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

        if (watch == null) {
            // As kube's cacher answers a too old resourceVersion: a stream of one ERROR event.
            watch = new ErrorWatch(WatchEvent.error(initialError));
        } else if (!watch.onReady(() -> { })) {
            // A watch that cannot notify (an uncached storage) is waited on by a thread of its own.
            watch = new NotifyingWatch(watch, s.request.getComponents().getThreadPool());
        }
        String group = s.groupVersion.group();
        String version = s.groupVersion.version();
        String kind = s.storage.kind();
        boolean webSocket = webSockets.requested(s.request);
        WatchEncoder encoder = new WatchEncoder(s, table, bookmarks, protobuf ? WatchEncoder.Form.protobuf(!webSocket)
                : WatchEncoder.Form.JSON, bytes -> serving.sent().sent(group, version, kind, bytes));
        WatchSink sink;
        if (webSocket) {
            sink = new WebSocketWatchSink(protobuf);
        } else {
            response.setStatus(200);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, protobuf ? ProtobufEncoder.STREAM_MEDIA_TYPE
                    : MediaType.JSON);
            response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache, private");
            Responses.addWarnings(response, s.ctx.warnings());
            sink = new HttpWatchSink(s.request, response, callback, writers,
                    TimeUnit.SECONDS.toMillis(timeoutSeconds) + IDLE_MARGIN_MILLIS);
        }
        AsyncWatchStream stream = new AsyncWatchStream(sink, s.request.getComponents().getScheduler(),
                s.info.path(), watch, encoder, timeoutSeconds, writers);
        stream.onFinish(tracker.apply(stream::end));
        stream.start();
        if (sink instanceof WebSocketWatchSink ws) {
            try {
                webSockets.upgrade(s.request, response, callback, ws, timeoutSeconds);
            } catch (Throwable e) {
                stream.abort(e);
                throw e;
            }
        }
    }

    /**
     * The WatchList parameter {@code sendInitialEvents}, validated as ValidateListOptions does: it
     * needs {@code resourceVersionMatch=NotOlderThan} and {@code allowWatchBookmarks=true}.
     */
    private static ListOptions withInitialEvents(RequestScope s, ListOptions o) {
        Boolean send = s.boolParam("sendInitialEvents");
        if (send == null) {
            return o;
        }
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

    /**
     * The watch's {@code timeoutSeconds}, as kube's ListResource reads it: 0 or none is the random
     * default, between {@code --min-request-timeout} and twice that; a negative one ends the watch
     * at once (kube's timer fires at once); a huge one is bounded by the longest time Go's Duration
     * holds (about 292 years), as kube's is.
     */
    static long timeoutSeconds(RequestScope s, long minTimeoutSeconds) {
        String t = s.param("timeoutSeconds");
        if (!t.isEmpty()) {
            long v;
            try {
                v = Long.parseLong(t);
            } catch (NumberFormatException e) {
                throw StatusException.badRequest("timeoutSeconds: Invalid value: \"" + t + "\": must be an integer");
            }
            if (v != 0) {
                return Math.max(0, Math.min(v, MAX_TIMEOUT_SECONDS));
            }
        }
        return minTimeoutSeconds + ThreadLocalRandom.current().nextLong(minTimeoutSeconds);
    }
}
