package io.kubelix.runtime.server.filters;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * WithAuditInit: every request gets an audit ID, the client's {@code Audit-ID} header when it sent
 * one, else a new random UUID, and every response carries it in its own {@code Audit-ID} header,
 * whether or not the request is audited, as kube-apiserver answers.
 */
public final class WithAuditInit extends Handler.Wrapper {
    public static final String HEADER = "Audit-ID";
    private static final String ATTRIBUTE = "io.kubelix.auditID";

    public WithAuditInit(Handler next) {
        super(next);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String id = request.getHeaders().get(HEADER);
        if (id == null || id.isEmpty()) {
            // Unique, not secret: a thread-local generator spares requests SecureRandom's lock.
            ThreadLocalRandom r = ThreadLocalRandom.current();
            id = new UUID((r.nextLong() & ~0xf000L) | 0x4000L, (r.nextLong() & 0x3fffffffffffffffL)
                    | 0x8000000000000000L).toString();
        }
        request.setAttribute(ATTRIBUTE, id);
        response.getHeaders().put(HEADER, id);
        return super.handle(request, response, callback);
    }

    /** The request's audit ID, or null before this filter. */
    public static String auditID(Request request) {
        return (String) request.getAttribute(ATTRIBUTE);
    }
}
