package io.kubelix.api.server;

import org.osgi.annotation.versioning.ProviderType;

import java.io.Closeable;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * A client's connection after {@link APIResponse#upgrade}: the raw bytes of the protocol it
 * switched to (a WebSocket's frames, SPDY's), no longer HTTP. Each stream is used by one thread at
 * a time; reading and writing may go on at once, on two threads, as a proxy relays both ways.
 */
@ProviderType
public interface UpgradedConnection extends Closeable {

    /**
     * What the client sends, bytes it sent right after its request included: reads block until it
     * sends more, return -1 once it has shut its side down, and throw an {@code IOException} once
     * the connection is closed. The same stream on every call.
     */
    InputStream input();

    /**
     * What the client is sent: writes block until the transport takes the bytes and throw an
     * {@code IOException} once the connection is closed. Closing the stream shuts down the
     * server's side (the client reads its end) and leaves the input open. The same stream on every
     * call.
     */
    OutputStream output();

    /** Closes the connection, both ways; a blocked read or write then throws. Idempotent. */
    @Override
    void close();
}
