package io.kubelix.support.net;

import java.math.BigInteger;

/**
 * A CIDR as Go parses one: the address as written and its prefix length, over the 32 bits of a
 * dotted IPv4 literal or the 128 of an IPv6 one (an IPv4-mapped {@code ::ffff:a.b.c.d/120} is a 128-bit
 * network, as in Go).
 *
 * @param ip           the address as written ({@code 10.0.0.7} of {@code 10.0.0.7/24})
 * @param prefixLength the number of network bits
 */
public record CIDR(IP ip, int prefixLength) {
    private static final int BIG = 0xFFFFFF;

    public CIDR {
        if (prefixLength < 0 || prefixLength > ip.bitLen()) {
            throw new IllegalArgumentException("prefix length " + prefixLength + " does not fit " + ip);
        }
    }

    /**
     * netutils.ParseCIDRSloppy: Go's {@code net.ParseCIDR} before Go 1.17, leading zeros allowed in the
     * IPv4 octets and in the prefix length.
     *
     * @return the CIDR, or null when {@code s} is not one
     */
    public static CIDR parseCIDRSloppy(String s) {
        int slash = s == null ? -1 : s.indexOf('/');
        if (slash < 0) {
            return null;
        }
        String addr = s.substring(0, slash);
        byte[] ip = IP.parseIPv4(addr, false);
        if (ip == null) {
            ip = IP.parseIPv6(addr, false);
        }
        String mask = s.substring(slash + 1);
        int n = 0;
        for (int i = 0; i < mask.length(); i++) {
            char c = mask.charAt(i);
            if (c < '0' || c > '9') {
                return null;
            }
            n = n * 10 + (c - '0');
            if (n >= BIG) {
                return null;
            }
        }
        if (ip == null || mask.isEmpty() || n > ip.length * 8) {
            return null;
        }
        return new CIDR(IP.of(ip), n);
    }

    /**
     * Go's {@code netip.ParsePrefix}, as CEL's {@code cidr()} and {@code isCIDR()} read CIDRs: the address
     * as {@link IP#parseIP} reads it, a prefix length without a sign or leading zero.
     *
     * @return the CIDR, or null when {@code s} is not one
     */
    public static CIDR parsePrefix(String s) {
        int slash = s == null ? -1 : s.lastIndexOf('/');
        if (slash < 0) {
            return null;
        }
        IP ip = IP.parseIP(s.substring(0, slash));
        String bits = s.substring(slash + 1);
        if (ip == null || bits.isEmpty() || bits.length() > 3 || !bits.chars().allMatch(c -> c >= '0' && c <= '9')
                || (bits.length() > 1 && bits.charAt(0) == '0')) {
            return null;
        }
        int n = Integer.parseInt(bits);
        return n > ip.bitLen() ? null : new CIDR(ip, n);
    }

    /** The address bits of the network: 32 or 128. */
    public int bits() {
        return ip.bitLen();
    }

    /** {@link IP#IPV4} or {@link IP#IPV6}, as netutils.IPFamilyOfCIDR reads it (a mapped network is IPv4). */
    public String family() {
        return ip.family();
    }

    /** The network address: the address with its host bits cleared (Go's {@code IPNet.IP}). */
    public IP network() {
        byte[] b = ip.literal().clone();
        for (int bit = prefixLength; bit < b.length * 8; bit++) {
            b[bit / 8] &= (byte) ~(0x80 >> (bit % 8));
        }
        return IP.of(b);
    }

    /** Go's {@code IPNet.Contains}: {@code other} lies in this network (a mapped network holds IPv4 addresses). */
    public boolean contains(IP other) {
        byte[] net = network().bytes();
        byte[] addr = other.bytes();
        int prefix = prefixLength - (bits() - net.length * 8);
        if (net.length != addr.length) {
            return false;
        }
        BigInteger host = BigInteger.ONE.shiftLeft(net.length * 8 - Math.max(prefix, 0));
        return new BigInteger(1, net).divide(host).equals(new BigInteger(1, addr).divide(host));
    }

    /** Go's {@code IPNet.String()}: the network address and the prefix length ({@code 10.0.0.0/24}). */
    @Override
    public String toString() {
        IP net = network();
        return net + "/" + Math.max(0, prefixLength - (bits() - net.bytes().length * 8));
    }
}
