package io.kubelix.junit.impl;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;

/**
 * The few requests the extension makes itself, as the admin user (bearer token) over TLS trusting
 * the server's CA: readiness, and creating and deleting the namespaces of tests. Plain JDK
 * {@link HttpClient}, so that the extension needs no Kubernetes client of its own.
 */
public final class AdminHttp {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final URI base;
    private final String token;
    private final HttpClient client;

    public AdminHttp(URI base, String token, SSLContext ssl) {
        this.base = base;
        this.token = token;
        this.client = HttpClient.newBuilder().sslContext(ssl).connectTimeout(TIMEOUT).build();
    }

    /** An SSL context that trusts the CA certificate in {@code caPem} only. */
    public static SSLContext trusting(Path caPem) {
        try (InputStream in = Files.newInputStream(caPem)) {
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            trust.setCertificateEntry("kubelix-ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + caPem, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust " + caPem, e);
        }
    }

    /** GET, with the answer's status and body. */
    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send(request(path).GET());
    }

    /** POST of a JSON body. */
    public HttpResponse<String> post(String path, String json) throws IOException, InterruptedException {
        return send(request(path).header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** POST of a YAML body (one document). */
    public HttpResponse<String> postYaml(String path, String yaml) throws IOException, InterruptedException {
        return send(request(path).header("Content-Type", "application/yaml").POST(HttpRequest.BodyPublishers.ofString(yaml)));
    }

    public HttpResponse<String> delete(String path) throws IOException, InterruptedException {
        return send(request(path).DELETE());
    }

    /** Ends the client's connections (the JDK's client has no close before Java 21). */
    public void close() {
        if (client instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                // nothing left to do with a client that is going away
            }
        }
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(TIMEOUT)
                .header("Authorization", "Bearer " + token).header("Accept", "application/json");
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
