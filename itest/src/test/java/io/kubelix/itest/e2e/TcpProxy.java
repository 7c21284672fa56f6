package io.kubelix.itest.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP forwarder on a free loopback port to {@code 127.0.0.1:targetPort}, so a test can play the
 * network: {@link #cutAll()} drops every open connection (TLS and HTTP/2 inside are untouched, the
 * bytes are only copied), {@link #refuse(boolean)} makes it close new connections at once. Daemon
 * threads, one per direction of each connection.
 */
final class TcpProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int targetPort;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile boolean refusing;
    private volatile boolean closed;

    TcpProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::acceptLoop, "tcp-proxy-accept");
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Connections forwarded so far (refused ones not counted). */
    int accepted() {
        return accepted.get();
    }

    void refuse(boolean refuse) {
        this.refusing = refuse;
    }

    /** Closes every forwarded connection, both sides: the client sees its connection reset or ended. */
    void cutAll() {
        for (Socket s : open) {
            closeQuietly(s);
        }
        open.clear();
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(listener);
        cutAll();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                return;
            }
            if (refusing) {
                closeQuietly(client);
                continue;
            }
            try {
                Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                open.add(client);
                open.add(upstream);
                accepted.incrementAndGet();
                pipe(client, upstream, "tcp-proxy-up");
                pipe(upstream, client, "tcp-proxy-down");
            } catch (IOException e) {
                closeQuietly(client);
            }
        }
    }

    private void pipe(Socket from, Socket to, String name) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buf)) >= 0) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException ignored) {
                // cut, or the other side went away
            } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
            }
        }, name);
        t.setDaemon(true);
        t.start();
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // already closed
        }
    }
}
