package io.kubelix.api.authn;

import java.security.cert.X509Certificate;
import java.util.List;

/** The parts of an HTTP request an authenticator may look at. */
public interface AuthenticationRequest {

    /** The first value of a request header, or null. */
    String header(String name);

    /** The verified TLS client certificate chain, empty when the client sent none. */
    List<X509Certificate> peerCertificates();

    /** The client's address, for logs. */
    String remoteAddress();
}
