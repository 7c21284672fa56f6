package io.kubelix.authn.x509;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/** The CA certificates of a client CA file (PEM, one or more), as trust anchors. */
record ClientCAs(Set<TrustAnchor> anchors) {
    static final ClientCAs NONE = new ClientCAs(Set.of());

    ClientCAs {
        anchors = Set.copyOf(anchors);
    }

    int size() {
        return anchors.size();
    }

    /** Parses PEM certificates; a file without any, or with a broken one, is malformed. */
    static ClientCAs parse(String pem) {
        Collection<? extends Certificate> certificates;
        try {
            certificates = CertificateFactory.getInstance("X.509")
                    .generateCertificates(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
        } catch (CertificateException e) {
            throw new IllegalArgumentException("not PEM certificates: " + e.getMessage(), e);
        }
        Set<TrustAnchor> anchors = new LinkedHashSet<>();
        for (Certificate c : certificates) {
            anchors.add(new TrustAnchor((X509Certificate) c, null));
        }
        if (anchors.isEmpty()) {
            throw new IllegalArgumentException("it holds no certificate");
        }
        return new ClientCAs(anchors);
    }
}
