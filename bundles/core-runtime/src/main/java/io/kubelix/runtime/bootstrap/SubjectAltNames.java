package io.kubelix.runtime.bootstrap;

import io.kubelix.support.net.IP;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The names a serving certificate is valid for: IP addresses (IP SANs) and DNS names (DNS SANs),
 * normalised so that {@code ::1} and {@code 0:0:0:0:0:0:0:1}, or {@code LocalHost} and
 * {@code localhost}, compare equal. Parsing never resolves a name.
 */
record SubjectAltNames(Set<String> ipAddresses, Set<String> dnsNames) {

    /** What every serving certificate covers, as kube-apiserver's self-signed certificate does. */
    static final List<String> LOOPBACK = List.of("127.0.0.1", "::1", "localhost");

    private static final Pattern DNS_NAME = Pattern.compile("(\\*\\.)?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\\.?");

    SubjectAltNames {
        ipAddresses = Set.copyOf(ipAddresses);
        dnsNames = Set.copyOf(dnsNames);
    }

    /**
     * The loopback names plus {@code hosts}; blank entries and wildcard addresses are ignored,
     * {@code [v6]} brackets removed.
     *
     * @throws IllegalArgumentException for an entry that is neither an IP address nor a DNS name
     */
    static SubjectAltNames forServing(Collection<String> hosts) {
        Set<String> ips = new LinkedHashSet<>();
        Set<String> names = new LinkedHashSet<>();
        List<String> all = new ArrayList<>(LOOPBACK);
        if (hosts != null) {
            all.addAll(hosts);
        }
        for (String raw : all) {
            String host = raw == null ? "" : raw.trim();
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            if (host.isEmpty()) {
                continue;
            }
            IP ip = IP.parseIPSloppy(host);
            if (ip != null) {
                // A wildcard bind address (0.0.0.0, ::) names no host a client could connect to.
                if (!ip.isUnspecified()) {
                    ips.add(normalize(ip));
                }
            } else if (DNS_NAME.matcher(host.toLowerCase(Locale.ROOT)).matches()) {
                names.add(host.toLowerCase(Locale.ROOT));
            } else {
                throw new IllegalArgumentException("serving host '" + raw
                        + "' is neither an IP address nor a DNS name (give a bare host, without scheme or port)");
            }
        }
        return new SubjectAltNames(ips, names);
    }

    /** The IP and DNS SANs of an existing certificate. */
    static SubjectAltNames of(X509Certificate certificate) throws CertificateParsingException {
        Set<String> ips = new LinkedHashSet<>();
        Set<String> names = new LinkedHashSet<>();
        Collection<List<?>> entries = certificate.getSubjectAlternativeNames();
        if (entries != null) {
            for (List<?> entry : entries) {
                int type = (Integer) entry.get(0);
                IP ip = type == GeneralName.iPAddress && entry.get(1) instanceof String s ? IP.parseIPSloppy(s) : null;
                if (ip != null) {
                    ips.add(normalize(ip));
                } else if (type == GeneralName.dNSName && entry.get(1) instanceof String name) {
                    names.add(name.toLowerCase(Locale.ROOT));
                }
            }
        }
        return new SubjectAltNames(ips, names);
    }

    /** The names of {@code wanted} this set lacks, sorted, empty when it covers them all. */
    Set<String> missing(SubjectAltNames wanted) {
        Set<String> missing = new TreeSet<>();
        wanted.ipAddresses.stream().filter(ip -> !ipAddresses.contains(ip)).forEach(missing::add);
        wanted.dnsNames.stream().filter(name -> !dnsNames.contains(name)).forEach(missing::add);
        return missing;
    }

    GeneralNames toGeneralNames() {
        List<GeneralName> names = new ArrayList<>();
        for (String ip : ipAddresses) {
            names.add(new GeneralName(GeneralName.iPAddress, new DEROctetString(IP.parseIPSloppy(ip).bytes())));
        }
        for (String name : dnsNames) {
            names.add(new GeneralName(GeneralName.dNSName, name));
        }
        return new GeneralNames(names.toArray(GeneralName[]::new));
    }

    @Override
    public String toString() {
        Set<String> all = new TreeSet<>(ipAddresses);
        all.addAll(dnsNames);
        return String.join(", ", all);
    }

    // The JDK's text, which is also how it reads the IP SANs of a certificate back.
    private static String normalize(IP ip) {
        return ip.toInetAddress().getHostAddress();
    }
}
