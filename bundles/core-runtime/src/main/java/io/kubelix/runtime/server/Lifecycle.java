package io.kubelix.runtime.server;

import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.FrameworkUtil;
import org.slf4j.Logger;

/**
 * Whether the server is stopping: the OSGi framework is stopping (a normal shutdown, SIGTERM under
 * {@code bin/kubelix}), or core-runtime itself is. Then plugins stop before the server's
 * controllers and informers do, and what fails because storage or a resource went away is the
 * shutdown, not a fault: it is logged at debug level, and what goes away is not announced one by one.
 */
public final class Lifecycle {
    private Lifecycle() {
    }

    /** True while the framework or core-runtime stops; false outside OSGi (unit tests). */
    public static boolean stopping() {
        Bundle own = FrameworkUtil.getBundle(Lifecycle.class);
        if (own == null) {
            return false;
        }
        if (own.getState() != Bundle.ACTIVE && own.getState() != Bundle.STARTING) {
            return true;
        }
        BundleContext context = own.getBundleContext();
        Bundle framework = context == null ? null : context.getBundle(Constants.SYSTEM_BUNDLE_ID);
        return framework == null || framework.getState() == Bundle.STOPPING;
    }

    /**
     * Logs that something went away (a plugin's API group, authenticator, admission plugin...): at
     * info level, and at debug level while the server stops, when everything goes.
     */
    public static void gone(Logger log, String format, Object... arguments) {
        if (stopping()) {
            log.debug(format, arguments);
        } else {
            log.info(format, arguments);
        }
    }
}
