package io.kubelix.support.flags;

import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.cert.CertPathValidator;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.PKIXParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The CA certificates of a PEM file given by a flag ({@code --client-ca-file},
 * {@code --requestheader-client-ca-file}), and the check kube's x509 request authenticator makes of
 * a client's certificate chain against them: it chains to one of them, is valid at the time given,
 * and may be used for client authentication (its extended key usage, when it has one, includes
 * {@code clientAuth} or any usage).
 */
public record CertificateAuthorities(Set<TrustAnchor> anchors) {
    public static final CertificateAuthorities NONE = new CertificateAuthorities(Set.of());

    private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
    private static final String ANY_USAGE = "2.5.29.37.0";

    public CertificateAuthorities {
        anchors = Set.copyOf(anchors);
    }

    public int size() {
        return anchors.size();
    }

    /** Parses PEM certificates; text without any, or with a broken one, is malformed. */
    public static CertificateAuthorities parse(String pem) {
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
        return new CertificateAuthorities(anchors);
    }

    /**
     * Verifies a client's chain, leaf first.
     *
     * @throws GeneralSecurityException saying why the chain is not accepted
     */
    public void verifyClient(List<X509Certificate> chain, Instant at) throws GeneralSecurityException {
        if (anchors.isEmpty()) {
            throw new GeneralSecurityException("no CA is loaded");
        }
        if (chain.isEmpty()) {
            throw new GeneralSecurityException("no certificate");
        }
        List<String> usages = chain.get(0).getExtendedKeyUsage();
        if (usages != null && !usages.contains(CLIENT_AUTH) && !usages.contains(ANY_USAGE)) {
            throw new GeneralSecurityException("the certificate may not be used for client authentication");
        }
        PKIXParameters parameters = new PKIXParameters(anchors);
        parameters.setRevocationEnabled(false);
        parameters.setDate(Date.from(at));
        CertPathValidator.getInstance("PKIX").validate(
                CertificateFactory.getInstance("X.509").generateCertPath(chain), parameters);
    }

    /** The common name of a certificate's subject (the last CN in the certificate's order), or empty. */
    public static String commonName(X509Certificate certificate) {
        String cn = "";
        try {
            // LdapName's RDNs run in the certificate's own order (the reverse of the string's).
            for (Rdn rdn : new LdapName(certificate.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    cn = rdn.getValue().toString();
                }
            }
        } catch (InvalidNameException e) {
            return "";
        }
        return cn;
    }
}
