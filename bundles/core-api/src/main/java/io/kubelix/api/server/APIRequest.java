package io.kubelix.api.server;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.osgi.annotation.versioning.ProviderType;

import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * An API request as a {@link DelegationTarget} sees it: what the client sent, and what the handler
 * chain has learnt of it. Its methods may be called from any thread, but the body is read by one
 * thread at a time.
 */
@ProviderType
public interface APIRequest {

    /** The HTTP method as sent, such as {@code GET} or {@code PATCH}. */
    String method();

    /**
     * The path the server routes by: percent-decoded, such as {@code /apis/apps/v1/deployments}.
     * It is {@link RequestInfo#path()}; a path with dot segments or a malformed escape never
     * reaches the server chain (it is answered 400).
     */
    String path();

    /** The path as the client sent it, percent-encoded; what a proxy forwards. */
    String rawPath();

    /**
     * The query as the client sent it, percent-encoded and without the {@code ?}, such as
     * {@code limit=500&continue=...}; null when the request target has no {@code ?}.
     */
    String rawQuery();

    /**
     * The request headers: each name as the client first sent it, with its values in the order
     * sent (a header sent twice has two values). Names are looked up case-insensitively;
     * HTTP/2 pseudo-headers are not included. Unmodifiable.
     */
    Map<String, List<String>> headers();

    /**
     * The body's length from {@code Content-Length}, or -1 when the client did not say (a chunked
     * HTTP/1.1 body, an HTTP/2 body without the header, or none at all).
     */
    long contentLength();

    /**
     * The body, read as it arrives: reads block until the client sends more and return -1 at its
     * end. The same stream on every call. A body left unread is dealt with by the server when the
     * response ends. Reading throws an {@code IOException} when the client goes away or sends a
     * malformed body.
     */
    InputStream body();

    /** What the request is about, parsed from its method and path (k8s' WithRequestInfo); never null. */
    RequestInfo requestInfo();

    /**
     * The user the request acts as: the authenticated one, or the one it impersonates when it was
     * allowed to ({@code system:anonymous} when anonymous requests are allowed); never null.
     */
    UserInfo user();

    /**
     * Calls {@code listener}, at most once and on a thread of the server's, when the request fails
     * before its response ends: the client reset its HTTP/2 stream or closed the connection, or the
     * connection timed out. A link that waits on something else meanwhile (a backend's response)
     * uses it to stop waiting; a read or write of the request then throws. On HTTP/1.1 a client
     * that goes away may only be noticed at the next write.
     */
    void addFailureListener(Consumer<Throwable> listener);
}
