package io.kubelix.runtime.server;

import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

import java.io.IOException;
import java.util.logging.LogManager;

/**
 * Under {@code bin/kubelix} (which sets {@code kubelix.logging-format}), the lines that FileInstall
 * and SPI Fly write through java.util.logging go to SLF4J, so they take the server's format and
 * a JSON log stays JSON on every line. In one's own container Kubelix leaves java.util.logging
 * alone. Going away, it reads java.util.logging's configuration again, so what logs after it
 * (FileInstall stopping the plugins) still goes somewhere.
 */
@Component(immediate = true)
public final class JavaUtilLogging {
    private static final Logger LOG = LoggerFactory.getLogger(JavaUtilLogging.class);
    private final boolean bridged;

    @Activate
    public JavaUtilLogging(BundleContext context) {
        bridged = context.getProperty("kubelix.logging-format") != null && !SLF4JBridgeHandler.isInstalled();
        if (bridged) {
            SLF4JBridgeHandler.removeHandlersForRootLogger();
            SLF4JBridgeHandler.install();
        }
    }

    @Deactivate
    void deactivate() {
        if (bridged) {
            SLF4JBridgeHandler.uninstall();
            try {
                LogManager.getLogManager().readConfiguration();
            } catch (IOException | SecurityException e) {
                LOG.warn("java.util.logging's configuration could not be read again: {}", e.toString());
            }
        }
    }
}
