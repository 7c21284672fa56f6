package io.kubelix.runtime.server.hooks;

import io.kubelix.api.server.HealthChecker;
import io.kubelix.api.server.PostStartHook;
import io.kubelix.runtime.server.Lifecycle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.ServiceRegistration;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Dictionary;
import java.util.HashMap;
import java.util.Hashtable;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Runs the {@link PostStartHook} services, as kube-apiserver's RunPostStartHooks: each on a thread
 * of its own, again after a back-off when it fails, with a readiness check
 * {@code poststarthook/<name>} that passes once a hook of that name has completed. A check goes
 * when no hook of its name is left.
 */
@Component(service = {})
public final class PostStartHooks {
    private static final Logger LOG = LoggerFactory.getLogger(PostStartHooks.class);
    static final Duration MIN_BACKOFF = Duration.ofMillis(200);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** How long a hook may keep failing before it is worth a warning. */
    static final Duration WARN_AFTER = Duration.ofSeconds(30);

    /** One name's check and the hooks of that name registered now. */
    private static final class Named {
        volatile boolean completed;
        int hooks;
        Runnable unregister;
    }

    private final BiFunction<String, HealthChecker, Runnable> registerCheck;
    private final Map<String, Named> names = new HashMap<>();
    private final Map<PostStartHook, Thread> running = new IdentityHashMap<>();
    private boolean stopped;

    @Activate
    public PostStartHooks(BundleContext context) {
        this((name, check) -> {
            Dictionary<String, Object> props = new Hashtable<>();
            props.put(HealthChecker.ENDPOINTS_PROPERTY, "readyz");
            ServiceRegistration<HealthChecker> reg = context.registerService(HealthChecker.class, check, props);
            return () -> {
                try {
                    reg.unregister();
                } catch (IllegalStateException e) {
                    // unregistered already, with the bundle
                }
            };
        });
    }

    /** For tests: {@code registerCheck} publishes a check and returns what withdraws it. */
    PostStartHooks(BiFunction<String, HealthChecker, Runnable> registerCheck) {
        this.registerCheck = registerCheck;
    }

    @Reference(cardinality = ReferenceCardinality.MULTIPLE, policy = ReferencePolicy.DYNAMIC)
    synchronized void addHook(PostStartHook hook) {
        if (stopped) {
            return;
        }
        String name = hook.name();
        Named named = names.computeIfAbsent(name, n -> new Named());
        if (named.hooks++ == 0) {
            named.unregister = registerCheck.apply(name, new Check(name, named));
        }
        Thread t = new Thread(() -> runUntilDone(hook, name, named), "kubelix-poststarthook-" + name);
        t.setDaemon(true);
        running.put(hook, t);
        LOG.info("post-start hook {}: started", name);
        t.start();
    }

    synchronized void removeHook(PostStartHook hook) {
        Thread t = running.remove(hook);
        if (t == null) {
            return;
        }
        t.interrupt();
        String name = hook.name();
        Named named = names.get(name);
        if (named != null && --named.hooks == 0) {
            named.unregister.run();
            names.remove(name);
        }
    }

    @Deactivate
    synchronized void deactivate() {
        stopped = true;
        running.values().forEach(Thread::interrupt);
        running.clear();
        names.values().forEach(n -> n.unregister.run());
        names.clear();
    }

    private static void runUntilDone(PostStartHook hook, String name, Named named) {
        Duration backoff = MIN_BACKOFF;
        long began = System.nanoTime();
        boolean warned = false;
        while (!Thread.currentThread().isInterrupted()) {
            try {
                hook.run();
                if (!named.completed) {
                    named.completed = true;
                    LOG.info("post-start hook {}: completed", name);
                } else {
                    LOG.info("post-start hook {}: completed again (a new revision of its plugin)", name);
                }
                return;
            } catch (InterruptedException e) {
                return;
            } catch (Exception | LinkageError e) {
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                // A hook fails while what it needs is still arriving (a plugin's resources, storage): normal
                // while the server starts, so at debug level; one that still fails after WARN_AFTER is warned of once.
                if (!warned && System.nanoTime() - began >= WARN_AFTER.toNanos() && !Lifecycle.stopping()) {
                    warned = true;
                    LOG.warn("post-start hook {}: not completed after {} s: {}; running it again in {} ms", name,
                            (System.nanoTime() - began) / 1_000_000_000L, e.toString(), backoff.toMillis());
                } else {
                    LOG.debug("post-start hook {}: failed: {}; running it again in {} ms", name, e.toString(),
                            backoff.toMillis());
                }
                try {
                    Thread.sleep(backoff.toMillis());
                } catch (InterruptedException stop) {
                    return;
                }
                backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : backoff.multipliedBy(2);
            }
        }
    }

    /** {@code poststarthook/<name>}: passes once a hook of the name has completed. */
    private record Check(String hookName, Named named) implements HealthChecker {
        @Override
        public String name() {
            return "poststarthook/" + hookName;
        }

        @Override
        public void check() {
            if (!named.completed) {
                throw new IllegalStateException("not finished");
            }
        }
    }
}
