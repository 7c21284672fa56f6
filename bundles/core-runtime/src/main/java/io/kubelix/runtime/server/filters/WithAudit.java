package io.kubelix.runtime.server.filters;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.runtime.audit.AuditContext;
import io.kubelix.runtime.audit.AuditOptions;
import io.kubelix.runtime.audit.Stage;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import io.kubelix.runtime.request.Requests;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpStream;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * WithAudit: records each request the audit policy selects, as kube-apiserver's audit filter does.
 * The event is sent at {@code RequestReceived} as the request enters, at {@code ResponseStarted}
 * when a long-running request (a watch, a connection, a log) sends its status, at
 * {@code ResponseComplete} once the response is done, and at {@code Panic} instead when handling
 * it failed unexpectedly; the policy may omit stages. An error inside is answered here, so its
 * Status is in the event. A request whose {@code RequestReceived} event a {@code blocking-strict}
 * backend could not record is refused with 500. Requests that fail authentication never get here:
 * {@link #failedAuthentication} records them.
 */
public final class WithAudit extends Handler.Wrapper {
    private static final Set<String> LONG_RUNNING_SUBRESOURCES = Set.of("attach", "exec", "proxy", "log", "portforward");

    private final AuditOptions.Audit audit;

    public WithAudit(Handler next, AuditOptions.Audit audit) {
        super(next);
        this.audit = audit;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        RequestInfo info = Requests.requestInfo(request);
        AuditContext ac = AuditContext.start(request, audit, WithAuditInit.auditID(request), Requests.user(request), info);
        if (ac == null) {
            return super.handle(request, response, callback);
        }
        // 1. RequestReceived.
        if (!ac.send(Stage.RequestReceived)) {
            audit.metrics().requestRejected();
            throw StatusException.internalError("failed to store audit event", null);
        }
        // 2. ResponseStarted, for a long-running request, as its status is sent.
        AtomicBoolean started = new AtomicBoolean();
        boolean longRunning = longRunning(info);
        if (longRunning) {
            request.addHttpStreamWrapper(stream -> new HttpStream.Wrapper(stream) {
                @Override
                public void send(MetaData.Request req, MetaData.Response res, boolean last, ByteBuffer content,
                                 Callback cb) {
                    if (res != null && started.compareAndSet(false, true)) {
                        ac.responseStarted(res.getStatus());
                    }
                    super.send(req, res, last, content, cb);
                }
            });
        }
        // 3. ResponseComplete, once the response is done.
        AtomicBoolean completed = new AtomicBoolean();
        Callback audited = new Callback.Nested(callback) {
            @Override
            public void succeeded() {
                complete(response.getStatus());
                super.succeeded();
            }

            @Override
            public void failed(Throwable x) {
                complete(response.isCommitted() ? response.getStatus() : x instanceof StatusException s ? s.code() : 500);
                super.failed(x);
            }

            private void complete(int code) {
                if (!completed.compareAndSet(false, true)) {
                    return;
                }
                if (longRunning && started.compareAndSet(false, true)) {
                    ac.responseStartedEarlyEnd(code);
                }
                ac.responseComplete(code);
            }
        };
        try {
            if (!super.handle(request, response, audited)) {
                throw new IllegalStateException("no handler took the request");
            }
            return true;
        } catch (StatusException e) {
            if (response.isCommitted()) {
                audited.failed(e);
            } else {
                Responses.writeStatus(request, response, audited, e);
            }
            return true;
        } catch (Throwable t) {
            // 4. Panic: the outer filters answer it.
            if (completed.compareAndSet(false, true)) {
                ac.panicked(t);
            }
            throw t;
        }
    }

    /**
     * WithFailedAuthenticationAudit: a request whose credentials no authenticator accepted is
     * recorded, at the level the policy gives an unknown user, as one {@code ResponseStarted} event
     * with its 401 Status.
     */
    public void failedAuthentication(Request request, StatusException unauthorized) {
        AuditContext ac = AuditContext.start(request, audit, WithAuditInit.auditID(request), null,
                Requests.requestInfo(request));
        if (ac != null) {
            ac.failedAuthentication(unauthorized);
        }
    }

    /** kube's BasicLongRunningRequestCheck: watches and the connect, log and proxy subresources. */
    static boolean longRunning(RequestInfo info) {
        return info.verb().equals("watch") || info.verb().equals("watchlist") || info.verb().equals("proxy")
                || (info.resourceRequest() && LONG_RUNNING_SUBRESOURCES.contains(info.subresource()));
    }
}
