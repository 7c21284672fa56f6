package io.kubelix.api.server;

import org.osgi.annotation.versioning.ConsumerType;

/**
 * A named start-up task (kube-apiserver's PostStartHook), registered as a whiteboard service.
 * core-runtime runs each hook once, on a thread of its own, when the hook's service appears;
 * until {@link #run()} returns, the readiness check {@code poststarthook/<name>} fails, so
 * {@code /readyz} tells clients the server is not ready yet. A hook that throws is logged and run
 * again after a back-off (from 200 ms, doubling to 30 s): its work must be idempotent, such as
 * creating objects that may already exist.
 *
 * <p>Once a hook of a name has completed, its check stays passed for the life of the server: a
 * new revision of the plugin registering it runs it again without making the server unready.
 * When the hook's service goes away while it runs, its thread is interrupted and its check
 * removed.
 */
@ConsumerType
public interface PostStartHook {

    /** The hook's name, such as {@code bootstrap-controller}; the check is {@code poststarthook/<name>}. */
    String name();

    /**
     * Does the start-up work and returns when it is done; may block (waiting for storage, for an
     * informer to sync). Thrown exceptions make it run again later.
     *
     * @throws InterruptedException when the server stops or the hook's bundle goes away meanwhile
     */
    void run() throws Exception;
}
