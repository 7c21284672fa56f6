package io.kubelix.runtime.server;

import io.kubelix.runtime.bootstrap.CertKeyFiles;
import io.kubelix.runtime.bootstrap.ServingKeys;
import io.kubelix.runtime.bootstrap.SniCertKey;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * kube-apiserver's dynamic serving certificates: {@code --tls-cert-file} with
 * {@code --tls-private-key-file}, and the {@code --tls-sni-cert-key} pairs, are checked every few seconds, and when they change (a renewal by
 * cert-manager or an operator) new connections are served with the new pair at once, without a
 * restart; connections already open keep theirs. A pair that does not load (a half-written file, a
 * key that is not the certificate's) is logged once and the previous certificates served.
 */
final class ServingCertificateReloader implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServingCertificateReloader.class);

    private final CertKeyFiles files;
    private final ServingKeys generated;
    private final List<SniCertKey> sni;
    private final SslContextFactory.Server tls;
    private final TlsProvider.Choice provider;
    private final ScheduledExecutorService timer;
    private List<Object> loaded;
    private String lastProblem;

    /** {@code files} is null when the default certificate is the data directory's {@code generated} one. */
    ServingCertificateReloader(CertKeyFiles files, ServingKeys generated, List<SniCertKey> sni,
                               SslContextFactory.Server tls, TlsProvider.Choice provider, Duration interval) {
        this.files = files;
        this.generated = generated;
        this.sni = List.copyOf(sni);
        this.tls = tls;
        this.provider = provider;
        this.loaded = stamp();
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kubelix-serving-certificate");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(this::check, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Loads the files again when they changed since the last load. */
    synchronized void check() {
        List<Object> stamp = stamp();
        if (stamp.equals(loaded)) {
            return;
        }
        try {
            ServingCertificates certificates = ServingCertificates.load(files, generated, sni);
            tls.reload(f -> GenericAPIServer.serve((SslContextFactory.Server) f, provider, certificates));
            loaded = stamp;
            lastProblem = null;
            LOG.info("Serving HTTPS with {}: the files changed", certificates.description());
        } catch (Exception e) {
            String problem = e.getMessage();
            if (!Objects.equals(problem, lastProblem)) {
                lastProblem = problem;
                LOG.error("The serving certificate was not reloaded, the previous one is served: {}", problem);
            }
        }
    }

    /** What identifies the current versions of all files served. */
    private List<Object> stamp() {
        List<Object> stamp = new ArrayList<>();
        if (files != null) {
            stamp.add(files.stamp());
        }
        sni.forEach(s -> stamp.add(s.files().stamp()));
        return stamp;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
