package io.kubelix.runtime.server;

/**
 * kube-apiserver's PreShutdownHook: run when the server begins to shut down, after
 * {@code --shutdown-delay-duration} and before it stops listening and waits for the requests in
 * flight. A whiteboard service inside core-runtime; it must not block for long.
 */
public interface PreShutdownHook {
    /** The hook's name, for the log. */
    String name();

    void run();
}
