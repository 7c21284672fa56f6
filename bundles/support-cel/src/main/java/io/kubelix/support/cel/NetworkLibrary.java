package io.kubelix.support.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import io.kubelix.support.net.CIDR;
import io.kubelix.support.net.IP;

import java.util.List;

/**
 * kube's IP and CIDR libraries (k8s.io/apiserver/pkg/cel/library/ip.go and cidr.go): {@code ip(string)},
 * {@code isIP}, {@code ip.isCanonical}, and on an IP {@code family()}, {@code isUnspecified()},
 * {@code isLoopback()}, {@code isLinkLocalMulticast()}, {@code isLinkLocalUnicast()},
 * {@code isGlobalUnicast()}; {@code cidr(string)}, {@code isCIDR}, and on a CIDR {@code containsIP}
 * and {@code containsCIDR} (of a value or a string), {@code ip()}, {@code masked()},
 * {@code prefixLength()}; {@code string()} of both. As kube, addresses with a zone and IPv4-mapped
 * IPv6 addresses are refused.
 */
final class NetworkLibrary {
    static final OpaqueType IP_TYPE = OpaqueType.create("net.IP");
    static final OpaqueType CIDR_TYPE = OpaqueType.create("net.CIDR");

    private NetworkLibrary() {
    }

    /** A CEL {@code net.IP}: an address kube's parseIPAddr accepts. */
    record KubeIP(IP ip) {
        @Override
        public String toString() {
            return ip.toString();
        }
    }

    /** A CEL {@code net.CIDR}: the address as written and the prefix length (Go's netip.Prefix). */
    record KubeCIDR(CIDR cidr) {
        @Override
        public String toString() {
            return cidr.ip() + "/" + cidr.prefixLength();
        }
    }

    static List<CelFunctionDecl> declarations() {
        return List.of(
                CelFunctionDecl.newFunctionDeclaration("ip",
                        CelOverloadDecl.newGlobalOverload("string_to_ip", IP_TYPE, SimpleType.STRING),
                        CelOverloadDecl.newMemberOverload("cidr_ip", IP_TYPE, CIDR_TYPE)),
                CelFunctionDecl.newFunctionDeclaration("ip.isCanonical",
                        CelOverloadDecl.newGlobalOverload("ip_is_canonical", SimpleType.BOOL, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("isIP",
                        CelOverloadDecl.newGlobalOverload("is_ip", SimpleType.BOOL, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("family",
                        CelOverloadDecl.newMemberOverload("ip_family", SimpleType.INT, IP_TYPE)),
                CelFunctionDecl.newFunctionDeclaration("isUnspecified",
                        CelOverloadDecl.newMemberOverload("ip_is_unspecified", SimpleType.BOOL, IP_TYPE)),
                CelFunctionDecl.newFunctionDeclaration("isLoopback",
                        CelOverloadDecl.newMemberOverload("ip_is_loopback", SimpleType.BOOL, IP_TYPE)),
                CelFunctionDecl.newFunctionDeclaration("isLinkLocalMulticast",
                        CelOverloadDecl.newMemberOverload("ip_is_link_local_multicast", SimpleType.BOOL, IP_TYPE)),
                CelFunctionDecl.newFunctionDeclaration("isLinkLocalUnicast",
                        CelOverloadDecl.newMemberOverload("ip_is_link_local_unicast", SimpleType.BOOL, IP_TYPE)),
                CelFunctionDecl.newFunctionDeclaration("isGlobalUnicast",
                        CelOverloadDecl.newMemberOverload("ip_is_global_unicast", SimpleType.BOOL, IP_TYPE)),
                CelFunctionDecl.newFunctionDeclaration("cidr",
                        CelOverloadDecl.newGlobalOverload("string_to_cidr", CIDR_TYPE, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("isCIDR",
                        CelOverloadDecl.newGlobalOverload("is_cidr", SimpleType.BOOL, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("containsIP",
                        CelOverloadDecl.newMemberOverload("cidr_contains_ip_string", SimpleType.BOOL, CIDR_TYPE, SimpleType.STRING),
                        CelOverloadDecl.newMemberOverload("cidr_contains_ip_ip", SimpleType.BOOL, CIDR_TYPE, IP_TYPE)),
                CelFunctionDecl.newFunctionDeclaration("containsCIDR",
                        CelOverloadDecl.newMemberOverload("cidr_contains_cidr_string", SimpleType.BOOL, CIDR_TYPE, SimpleType.STRING),
                        CelOverloadDecl.newMemberOverload("cidr_contains_cidr", SimpleType.BOOL, CIDR_TYPE, CIDR_TYPE)),
                CelFunctionDecl.newFunctionDeclaration("masked",
                        CelOverloadDecl.newMemberOverload("cidr_masked", CIDR_TYPE, CIDR_TYPE)),
                CelFunctionDecl.newFunctionDeclaration("prefixLength",
                        CelOverloadDecl.newMemberOverload("cidr_prefix_length", SimpleType.INT, CIDR_TYPE)),
                CelFunctionDecl.newFunctionDeclaration("string",
                        CelOverloadDecl.newGlobalOverload("ip_to_string", SimpleType.STRING, IP_TYPE),
                        CelOverloadDecl.newGlobalOverload("cidr_to_string", SimpleType.STRING, CIDR_TYPE)));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_ip", String.class, NetworkLibrary::ip),
                CelFunctionBinding.from("cidr_ip", KubeCIDR.class, c -> new KubeIP(c.cidr().ip())),
                CelFunctionBinding.from("ip_is_canonical", String.class, s -> ip(s).toString().equals(s)),
                CelFunctionBinding.from("is_ip", String.class, NetworkLibrary::isIP),
                CelFunctionBinding.from("ip_family", KubeIP.class, ip -> ip.ip().isIPv4() ? 4L : 6L),
                CelFunctionBinding.from("ip_is_unspecified", KubeIP.class, ip -> ip.ip().isUnspecified()),
                CelFunctionBinding.from("ip_is_loopback", KubeIP.class, ip -> ip.ip().isLoopback()),
                CelFunctionBinding.from("ip_is_link_local_multicast", KubeIP.class, ip -> ip.ip().isLinkLocalMulticast()),
                CelFunctionBinding.from("ip_is_link_local_unicast", KubeIP.class, ip -> ip.ip().isLinkLocalUnicast()),
                CelFunctionBinding.from("ip_is_global_unicast", KubeIP.class, ip -> isGlobalUnicast(ip.ip())),
                CelFunctionBinding.from("string_to_cidr", String.class, NetworkLibrary::cidr),
                CelFunctionBinding.from("is_cidr", String.class, NetworkLibrary::isCIDR),
                CelFunctionBinding.from("cidr_contains_ip_string", KubeCIDR.class, String.class,
                        (c, s) -> c.cidr().contains(ip(s).ip())),
                CelFunctionBinding.from("cidr_contains_ip_ip", KubeCIDR.class, KubeIP.class,
                        (c, ip) -> c.cidr().contains(ip.ip())),
                CelFunctionBinding.from("cidr_contains_cidr_string", KubeCIDR.class, String.class,
                        (c, s) -> containsCIDR(c, cidr(s))),
                CelFunctionBinding.from("cidr_contains_cidr", KubeCIDR.class, KubeCIDR.class, NetworkLibrary::containsCIDR),
                CelFunctionBinding.from("cidr_masked", KubeCIDR.class,
                        c -> new KubeCIDR(new CIDR(c.cidr().network(), c.cidr().prefixLength()))),
                CelFunctionBinding.from("cidr_prefix_length", KubeCIDR.class, c -> (long) c.cidr().prefixLength()),
                CelFunctionBinding.from("ip_to_string", KubeIP.class, KubeIP::toString),
                CelFunctionBinding.from("cidr_to_string", KubeCIDR.class, KubeCIDR::toString));
    }

    /** kube's parseIPAddr, with its messages (Go's own parse error is summarised). */
    static KubeIP ip(String s) {
        if (s.contains("%") && IP.parseIP(s.substring(0, s.indexOf('%'))) != null) {
            throw new LibraryError("IP address \"" + s + "\" with zone value is not allowed");
        }
        IP ip = IP.parseIP(s);
        if (ip == null) {
            throw new LibraryError("IP Address \"" + s + "\" parse error during conversion from string: "
                    + "ParseAddr(\"" + s + "\"): unable to parse IP");
        }
        if (ip.is4In6()) {
            throw new LibraryError("IPv4-mapped IPv6 address \"" + s + "\" is not allowed");
        }
        return new KubeIP(ip);
    }

    /** kube's parseCIDR, with its messages. */
    static KubeCIDR cidr(String s) {
        CIDR cidr = CIDR.parsePrefix(s);
        if (cidr == null) {
            throw new LibraryError("network address parse error during conversion from string: "
                    + "netip.ParsePrefix(\"" + s + "\"): " + (s.contains("/") ? "bad prefix" : "no '/'"));
        }
        if (cidr.ip().is4In6()) {
            throw new LibraryError("network address parse error during conversion from string: "
                    + "IPv4-mapped IPv6 address \"" + s + "\" is not allowed");
        }
        return new KubeCIDR(cidr);
    }

    /** kube's parseIPAddr succeeds: Go's netip.ParseAddr without a zone, an IPv4-mapped IPv6 address refused. */
    static boolean isIP(String s) {
        IP ip = IP.parseIP(s);
        return ip != null && !ip.is4In6();
    }

    /** kube's parseCIDR succeeds: Go's netip.ParsePrefix, an IPv4-mapped IPv6 address refused. */
    static boolean isCIDR(String s) {
        CIDR cidr = CIDR.parsePrefix(s);
        return cidr != null && !cidr.ip().is4In6();
    }

    /** netip.Prefix: {@code other} is of the same family, no wider, and inside this prefix. */
    private static boolean containsCIDR(KubeCIDR c, KubeCIDR other) {
        return c.cidr().ip().isIPv4() == other.cidr().ip().isIPv4()
                && other.cidr().prefixLength() >= c.cidr().prefixLength()
                && c.cidr().contains(other.cidr().network());
    }

    /** Go's netip.Addr.IsGlobalUnicast: neither unspecified, broadcast, loopback, multicast nor link-local. */
    private static boolean isGlobalUnicast(IP ip) {
        byte[] b = ip.bytes();
        boolean broadcast = ip.isIPv4() && (b[0] & b[1] & b[2] & b[3] & 0xff) == 0xff;
        boolean multicast = ip.isIPv4() ? (b[0] & 0xf0) == 0xe0 : (b[0] & 0xff) == 0xff;
        return !ip.isUnspecified() && !broadcast && !ip.isLoopback() && !multicast && !ip.isLinkLocalUnicast();
    }
}
