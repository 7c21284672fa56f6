package io.kubelix.runtime.endpoints;

import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.CountingCallback;
import org.eclipse.jetty.websocket.core.CloseStatus;
import org.eclipse.jetty.websocket.core.CoreSession;
import org.eclipse.jetty.websocket.core.Frame;
import org.eclipse.jetty.websocket.core.FrameHandler;
import org.eclipse.jetty.websocket.core.OpCode;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

/**
 * A watch streamed over a WebSocket, as kube-apiserver serves a watch request that asks to upgrade
 * (fabric8's clients do by default): each event is one text message holding its JSON line, newline
 * included, or in protobuf one binary message holding its WatchEvent; what the client sends is ignored but pings, which are answered; the stream ends with a
 * normal close (1000), whether the watch ended, timed out or its resource stopped being served.
 */
final class WebSocketWatchSink implements WatchSink, FrameHandler {
    private final byte opCode;
    private CoreSession session;
    private Callback opened;
    private Consumer<Throwable> gone;

    /** @param binary whether events are binary (protobuf) messages rather than text */
    WebSocketWatchSink(boolean binary) {
        this.opCode = binary ? OpCode.BINARY : OpCode.TEXT;
    }

    @Override
    public void open(Callback opened, Consumer<Throwable> gone) {
        CoreSession s;
        synchronized (this) {
            this.opened = opened;
            this.gone = gone;
            s = session;
        }
        if (s != null) {
            opened.succeeded();
        }
    }

    @Override
    public void onOpen(CoreSession coreSession, Callback callback) {
        Callback o;
        synchronized (this) {
            session = coreSession;
            o = opened;
        }
        callback.succeeded();
        coreSession.demand();
        if (o != null) {
            o.succeeded();
        }
    }

    @Override
    public void write(WatchBatch batch, Callback written) {
        int n = batch.events();
        Callback each = new CountingCallback(written, n);
        for (int i = 0; i < n; i++) {
            // All but the last are batched, so a burst leaves in as few socket writes as fit.
            session().sendFrame(new Frame(opCode, batch.event(i)), each, i < n - 1);
        }
    }

    @Override
    public void end() {
        session().close(CloseStatus.NORMAL, null, Callback.NOOP);
    }

    @Override
    public void abort(Throwable failure) {
        CoreSession s = session();
        if (s != null) {
            s.abort();
        }
    }

    @Override
    public void onFrame(Frame frame, Callback callback) {
        CoreSession s = session();
        switch (frame.getOpCode()) {
            case OpCode.PING -> {
                ByteBuffer payload = ByteBuffer.allocate(frame.getPayloadLength());
                if (frame.hasPayload()) {
                    payload.put(frame.getPayload().slice()).flip();
                }
                callback.succeeded();
                s.sendFrame(new Frame(OpCode.PONG, payload), Callback.NOOP, false);
                s.demand();
            }
            // The session answers a close itself, then reports onClosed.
            case OpCode.CLOSE -> callback.succeeded();
            default -> {
                callback.succeeded();
                s.demand();
            }
        }
    }

    @Override
    public void onError(Throwable cause, Callback callback) {
        // The session closes after an error and reports it through onClosed.
        callback.succeeded();
    }

    @Override
    public void onClosed(CloseStatus closeStatus, Callback callback) {
        Consumer<Throwable> g;
        synchronized (this) {
            g = gone;
        }
        callback.succeeded();
        if (g != null) {
            g.accept(new EofException("websocket closed: " + closeStatus));
        }
    }

    private synchronized CoreSession session() {
        return session;
    }
}
