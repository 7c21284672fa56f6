package io.kubelix.api.authn;

import org.osgi.annotation.versioning.ProviderType;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The parts of an HTTP request an authenticator may look at. */
@ProviderType
public interface AuthenticationRequest {

    /** The first value of a request header, or null. */
    String header(String name);

    /**
     * Every value of a request header, one per header line in the order sent (values are not
     * split at commas); empty when absent. Header names match case-insensitively.
     */
    default List<String> headers(String name) {
        String value = header(name);
        return value == null ? List.of() : List.of(value);
    }

    /** The names of the request's headers, as sent (for headers matched by prefix). */
    default Set<String> headerNames() {
        return Set.of();
    }

    /** The token of the request's {@code Authorization: Bearer <token>} header, if it has one. */
    default Optional<String> bearerToken() {
        return BearerToken.from(header("Authorization"));
    }

    /** The verified TLS client certificate chain, empty when the client sent none. */
    List<X509Certificate> peerCertificates();

    /** The client's address, for logs. */
    String remoteAddress();
}
