package io.kubelix.runtime.server.filters;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The handler behind a limiting filter under test: answers 200, but holds a request whose
 * {@code X-Test-Hold} header is set until {@link #release} is counted down, and fails one whose
 * {@code X-Test-Fail} header is set with a 404 Status.
 */
final class HoldingHandler extends Handler.Abstract {
    final CountDownLatch held = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (request.getHeaders().get("X-Test-Hold") != null) {
            held.countDown();
            assertTrue(release.await(30, TimeUnit.SECONDS));
        }
        if (request.getHeaders().get("X-Test-Fail") != null) {
            throw new StatusException(StatusReason.NOT_FOUND, 404, "gone meanwhile", null, null);
        }
        response.setStatus(200);
        callback.succeeded();
        return true;
    }
}
