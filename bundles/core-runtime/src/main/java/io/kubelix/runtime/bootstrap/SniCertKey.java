package io.kubelix.runtime.bootstrap;

import java.nio.file.Path;
import java.security.KeyStoreException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import javax.naming.InvalidNameException;
import javax.naming.ldap.LdapName;
import javax.naming.ldap.Rdn;

/**
 * One kube-apiserver {@code --tls-sni-cert-key} value, {@code cert.crt,key.key[:name,name…]}: a
 * certificate served to clients whose SNI asks for one of its names. Without explicit names, the
 * certificate's own names are used: its common name when that is a host name, and its DNS SANs
 * (never its IPs, as SNI carries no IP).
 */
public record SniCertKey(CertKeyFiles files, List<String> names) {
    public static final String FLAG = "--tls-sni-cert-key";
    private static final Pattern DNS_SUBDOMAIN =
            Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    /**
     * Parses one flag value as kube does (names after the first colon, then certificate and key
     * separated by a comma).
     *
     * @throws IllegalArgumentException with pflag's message for an invalid argument
     */
    public static SniCertKey parse(String value) {
        String certKey = value;
        List<String> names = List.of();
        int colon = value.indexOf(':');
        if (colon >= 0) {
            certKey = value.substring(0, colon).trim();
            String list = value.substring(colon + 1).trim();
            if (list.isEmpty()) {
                throw invalid(value, "empty names list is not allowed");
            }
            names = new ArrayList<>();
            for (String name : list.split(",", -1)) {
                names.add(name.trim().toLowerCase(Locale.ROOT));
            }
            names = List.copyOf(names);
        }
        String[] files = certKey.trim().split(",", -1);
        if (files.length != 2) {
            throw invalid(value, "expected comma separated certificate and key file paths");
        }
        return new SniCertKey(new CertKeyFiles(Path.of(files[0].trim()).toAbsolutePath(),
                Path.of(files[1].trim()).toAbsolutePath()), names);
    }

    private static IllegalArgumentException invalid(String value, String why) {
        return new IllegalArgumentException("invalid argument \"" + value + "\" for \"" + FLAG + "\" flag: " + why);
    }

    /** The pair, loaded, with the names it serves. */
    public Named load() {
        ServingKeys keys = files.load(FLAG, FLAG);
        if (!names.isEmpty()) {
            return new Named(keys, names, true);
        }
        try {
            String alias = keys.store().aliases().nextElement();
            return new Named(keys, certificateNames((X509Certificate) keys.store().getCertificate(alias)), false);
        } catch (KeyStoreException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The common name when it is a host name (not an IP), then the DNS SANs, lower case. */
    static List<String> certificateNames(X509Certificate certificate) {
        List<String> names = new ArrayList<>();
        String cn = commonName(certificate);
        if (cn != null && !isIp(cn) && (cn.equals("*") || DNS_SUBDOMAIN.matcher(
                cn.toLowerCase(Locale.ROOT).replaceFirst("^\\*\\.", "")).matches() && cn.length() <= 253)) {
            names.add(cn.toLowerCase(Locale.ROOT));
        }
        try {
            if (certificate.getSubjectAlternativeNames() != null) {
                for (List<?> san : certificate.getSubjectAlternativeNames()) {
                    if (Integer.valueOf(2).equals(san.get(0))) {
                        names.add(((String) san.get(1)).toLowerCase(Locale.ROOT));
                    }
                }
            }
        } catch (CertificateParsingException e) {
            throw new IllegalArgumentException(FLAG + ": cannot read the names of "
                    + certificate.getSubjectX500Principal() + ": " + e.getMessage(), e);
        }
        return List.copyOf(names);
    }

    private static String commonName(X509Certificate certificate) {
        try {
            for (Rdn rdn : new LdapName(certificate.getSubjectX500Principal().getName()).getRdns()) {
                if (rdn.getType().equalsIgnoreCase("CN")) {
                    return rdn.getValue().toString();
                }
            }
        } catch (InvalidNameException e) {
            return null;
        }
        return null;
    }

    /** Whether the name is an IPv4 or IPv6 literal (a DNS name has neither this form nor a colon). */
    private static boolean isIp(String name) {
        return name.contains(":") || name.matches("\\d{1,3}(\\.\\d{1,3}){3}");
    }

    /**
     * A loaded SNI certificate and the names (exact or {@code *.} wildcards) it is served for;
     * explicit when the flag gave them, which makes them win over names read from certificates.
     */
    public record Named(ServingKeys keys, List<String> names, boolean explicit) {
    }
}
