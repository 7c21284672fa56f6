package io.kubelix.runtime.server.filters;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How kube-apiserver's self-protecting filters refuse a request: 429 with {@code Retry-After} and
 * the plain-text body {@code Too many requests, please try again later.}; and how a request they
 * let through gives its seat back once, however it ends.
 */
final class TooManyRequests {
    private static final byte[] BODY = "Too many requests, please try again later.\n".getBytes(StandardCharsets.UTF_8);

    private TooManyRequests() {
    }

    static void write(Response response, Callback callback, String retryAfter) {
        response.setStatus(429);
        response.getHeaders().put(HttpHeader.RETRY_AFTER, retryAfter);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.getHeaders().put("X-Content-Type-Options", "nosniff");
        response.write(true, ByteBuffer.wrap(BODY), callback);
    }

    /**
     * Serves the request with {@code next} in a seat: {@code release} runs once the response is
     * complete, or as soon as {@code next} returns when {@code releaseOnReturn}, or when it did not
     * take the request or threw (the outer filters then answer with the original callback).
     */
    static boolean serveInSeat(Handler next, Request request, Response response, Callback callback, Runnable release,
                               boolean releaseOnReturn) throws Exception {
        Releasing releasing = new Releasing(callback, release);
        try {
            boolean handled = next.handle(request, response, releasing);
            if (!handled || releaseOnReturn) {
                releasing.release();
            }
            return handled;
        } catch (Throwable t) {
            releasing.release();
            throw t;
        }
    }

    /** Runs {@code release} at most once: from the returned callback's completion, or from the caller. */
    private static final class Releasing extends Callback.Nested {
        private final AtomicBoolean held = new AtomicBoolean(true);
        private final Runnable release;

        Releasing(Callback callback, Runnable release) {
            super(callback);
            this.release = release;
        }

        void release() {
            if (held.compareAndSet(true, false)) {
                release.run();
            }
        }

        @Override
        public void succeeded() {
            release();
            super.succeeded();
        }

        @Override
        public void failed(Throwable x) {
            release();
            super.failed(x);
        }
    }
}
