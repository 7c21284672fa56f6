package io.kubelix.api.server;

import org.osgi.annotation.versioning.ProviderType;

import java.io.OutputStream;
import java.util.function.Consumer;

/**
 * The response to an {@link APIRequest}, written by the {@link DelegationTarget} that took it,
 * from one thread at a time. Its status and headers are sent with the first part of the body
 * (the response is then <em>committed</em>) or when it ends; the response ends with exactly one
 * of {@link #complete()} and {@link #fail(Throwable)}, the first call counting and later ones
 * doing nothing, or with {@link #upgrade()}, which hands the connection over.
 */
@ProviderType
public interface APIResponse {

    /**
     * Sets the status code (200 unless set).
     *
     * @throws IllegalStateException once the response is committed
     */
    void setStatus(int code);

    /**
     * Sets the header {@code name} (case-insensitive) to this one value, replacing any it had.
     *
     * @throws IllegalStateException once the response is committed
     */
    void setHeader(String name, String value);

    /**
     * Adds a value to the header {@code name}, after any it has.
     *
     * @throws IllegalStateException once the response is committed
     */
    void addHeader(String name, String value);

    /**
     * The body, as a blocking stream; the same stream on every call. Writes are buffered (a few
     * KiB) and sent when the buffer fills, on {@link OutputStream#flush() flush}, or when the
     * response completes: a body that is never flushed and fits the buffer is sent whole with a
     * {@code Content-Length}, otherwise it is streamed (chunked on HTTP/1.1) unless a
     * {@code Content-Length} header was set. {@code flush} commits the response even with nothing
     * written, so a client sees a stream open before its first event. Writes and flushes block
     * until the transport takes the bytes and throw an {@code IOException} when the client has
     * gone or the response has ended. Closing the stream does nothing: {@link #complete()} ends
     * the body.
     */
    OutputStream body();

    /**
     * Marks the response long-running (a watch, a stream proxied from elsewhere): it may be quiet
     * for as long as the server lets a watch be (an hour and a margin) rather than being closed
     * after the idle timeout of ordinary requests. On HTTP/1.1 this takes the whole connection,
     * which then closes when the response ends ({@code Connection: close}); on HTTP/2 it concerns
     * the request's stream alone.
     *
     * @throws IllegalStateException once the response is committed
     */
    void longRunning();

    /**
     * Ends the response: sends what is buffered of the body (with the status and headers when not
     * sent yet) as its last part. Does not block; a client that has gone meanwhile just does not
     * get it.
     */
    void complete();

    /**
     * Ends the response as failed, such as when the source of a streamed body breaks. Before the
     * response is committed the server answers 500 instead; afterwards the client sees it cut
     * short (an HTTP/2 stream reset, or an HTTP/1.1 connection closed), not completed. Does not
     * block.
     */
    void fail(Throwable cause);

    /**
     * Switches the connection to another protocol, as HTTP/1.1's {@code Upgrade} does: sends
     * {@code 101 Switching Protocols} with the headers set (the link sets {@code Upgrade} and
     * {@code Connection: Upgrade} itself, and whatever else the protocol wants) and ends the
     * response ({@link #complete()} and {@link #fail(Throwable)} then do nothing). Once the link
     * has returned from {@link DelegationTarget#handle(APIRequest, APIResponse) handle} and the
     * connection has switched, {@code protocol} is called with its raw bytes, once, on a thread of
     * the server's that it may keep for as long as the protocol lasts; it closes the connection
     * when done. When the client has gone before the switch, it is called with the connection
     * closed (reads and writes throw), so that it frees what it holds. The connection has no idle
     * timeout, as a connection hijacked in Go has none. The request's body must not have been read.
     *
     * @throws IllegalStateException once the response is committed or has ended, or when the
     *     request is not HTTP/1.1 (HTTP/2 has no upgrade)
     * @since 2.1
     */
    void upgrade(Consumer<UpgradedConnection> protocol);
}
