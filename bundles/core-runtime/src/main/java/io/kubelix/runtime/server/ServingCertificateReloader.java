package io.kubelix.runtime.server;

import io.kubelix.runtime.bootstrap.CertKeyFiles;
import io.kubelix.runtime.bootstrap.ServingKeys;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * kube-apiserver's dynamic serving certificate: {@code --tls-cert-file} and
 * {@code --tls-private-key-file} are checked every few seconds, and when they change (a renewal by
 * cert-manager or an operator) new connections are served with the new pair at once, without a
 * restart; connections already open keep theirs. A pair that does not load (a half-written file, a
 * key that is not the certificate's) is logged once and the previous one served.
 */
final class ServingCertificateReloader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServingCertificateReloader.class);

    private final CertKeyFiles files;
    private final SslContextFactory.Server tls;
    private final TlsProvider.Choice provider;
    private final ScheduledExecutorService timer;
    private List<Object> loaded;
    private String lastProblem;

    ServingCertificateReloader(CertKeyFiles files, SslContextFactory.Server tls, TlsProvider.Choice provider,
                               Duration interval) {
        this.files = files;
        this.tls = tls;
        this.provider = provider;
        this.loaded = files.stamp();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kubelix-serving-certificate");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::check, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Loads the files again when they changed since the last load. */
    synchronized void check() {
        List<Object> stamp = files.stamp();
        if (stamp.equals(loaded)) {
            return;
        }
        try {
            ServingKeys keys = files.load();
            tls.reload(f -> GenericAPIServer.serve((SslContextFactory.Server) f, provider, keys));
            loaded = stamp;
            lastProblem = null;
            LOG.info("Serving HTTPS with {}: the files changed", keys.description());
        } catch (Exception e) {
            String problem = e.getMessage();
            if (!Objects.equals(problem, lastProblem)) {
                lastProblem = problem;
                LOG.error("The serving certificate was not reloaded, the previous one is served: {}", problem);
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
