package io.kubelix.runtime.server;

import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * SIGTERM and SIGINT as kube-apiserver takes them: the first stops the framework, which shuts the
 * server down gracefully (see {@link GenericAPIServer}), and the launcher then exits 0; a second
 * exits at once, with 1. Installed only where the launcher asks for it ({@code bin/kubelix}), never
 * in a framework embedded in another program.
 */
final class Signals {
    private static final Logger LOG = LoggerFactory.getLogger(Signals.class);

    private Signals() {
    }

    static void install(BundleContext context) {
        AtomicBoolean received = new AtomicBoolean();
        sun.misc.SignalHandler handler = signal -> {
            if (!received.compareAndSet(false, true)) {
                LOG.warn("received SIG{} again: exiting at once", signal.getName());
                Runtime.getRuntime().halt(1);
            }
            LOG.info("received SIG{}: shutting down gracefully (a second signal exits at once)", signal.getName());
            Thread stop = new Thread(() -> {
                try {
                    context.getBundle(0).stop();
                } catch (BundleException | IllegalStateException e) {
                    LOG.error("cannot stop the framework: {}; exiting", e.toString());
                    Runtime.getRuntime().halt(1);
                }
            }, "kubelix-signal-shutdown");
            stop.start();
        };
        Signal.handle(new Signal("TERM"), handler);
        Signal.handle(new Signal("INT"), handler);
    }
}
