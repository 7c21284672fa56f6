package io.kubelix.support.webhook;

import javax.net.ssl.SSLException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.CompletionException;

/** A failed call to a webhook as Go's HTTP client words it, for the messages kube's webhook errors quote. */
public final class WebhookErrors {
    private WebhookErrors() {
    }

    /** The common failures in Go's words: a deadline, a refused connection, a certificate not trusted. */
    public static String describe(Throwable failure, URI connected) {
        Throwable t = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (t instanceof HttpTimeoutException) {
            return "context deadline exceeded";
        }
        if (t instanceof ConnectException) {
            return "dial tcp " + connected.getHost() + ":" + connected.getPort() + ": connect: connection refused";
        }
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SSLException || c instanceof java.security.cert.CertificateException) {
                return "tls: failed to verify certificate: " + c.getMessage();
            }
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }
}
