package io.kubelix.support.net;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * An IP address as Go's {@code net.IP} holds one, parsed from its literal and never looked up as a
 * name. An IPv4-mapped IPv6 address ({@code ::ffff:1.2.3.4}) is IPv4, as Go's {@code ip.To4() != nil}
 * and kube's family checks read it, yet keeps the 128 bits of its literal for a CIDR.
 */
public final class IP {
    /** kube's IPFamily names. */
    public static final String IPV4 = "IPv4";
    public static final String IPV6 = "IPv6";

    // Go's net package stops reading a number at this size; parsing limits come from it.
    private static final int BIG = 0xFFFFFF;

    private final byte[] literal;

    private IP(byte[] literal) {
        this.literal = literal;
    }

    /**
     * netutils.ParseIPSloppy: Go's {@code net.ParseIP} as it was before Go 1.17, which reads an IPv4
     * octet with leading zeros as decimal ({@code 010.1.1.1} is 10.1.1.1). kube validates with it so that
     * values it once stored stay valid.
     *
     * @return the address, or null when {@code s} is not an IPv4 or IPv6 literal
     */
    public static IP parseIPSloppy(String s) {
        return parse(s, false);
    }

    /**
     * Go's {@code net.ParseIP} (netip.ParseAddr without a zone): no leading zeros in an IPv4 octet and at
     * most four hex digits in an IPv6 group, as CEL's {@code ip()} and {@code isIP()} read addresses.
     *
     * @return the address, or null when {@code s} is not such a literal
     */
    public static IP parseIP(String s) {
        return parse(s, true);
    }

    /** netutils.IsIPv4String: a sloppy IP literal of the IPv4 family. */
    public static boolean isIPv4String(String s) {
        IP ip = parseIPSloppy(s);
        return ip != null && ip.isIPv4();
    }

    /** netutils.IsIPv6String: a sloppy IP literal of the IPv6 family. */
    public static boolean isIPv6String(String s) {
        IP ip = parseIPSloppy(s);
        return ip != null && ip.isIPv6();
    }

    /** The address of 4 (IPv4) or 16 (IPv6) bytes. */
    public static IP of(byte[] address) {
        if (address.length != 4 && address.length != 16) {
            throw new IllegalArgumentException("an IP address has 4 or 16 bytes, not " + address.length);
        }
        return new IP(address.clone());
    }

    /** The address whose unsigned number is {@code value}, in {@code length} (4 or 16) bytes. */
    public static IP fromBigInteger(BigInteger value, int length) {
        byte[] raw = value.toByteArray();
        byte[] bytes = new byte[length];
        int copy = Math.min(raw.length, length);
        System.arraycopy(raw, raw.length - copy, bytes, length - copy, copy);
        return of(bytes);
    }

    /** Go's {@code To4() != nil}: a dotted IPv4 literal or an IPv4-mapped IPv6 one. */
    public boolean isIPv4() {
        return literal.length == 4 || is4In6();
    }

    public boolean isIPv6() {
        return !isIPv4();
    }

    /** An IPv6 literal of an IPv4 address ({@code ::ffff:a.b.c.d}), which CEL refuses. */
    public boolean is4In6() {
        if (literal.length != 16 || (literal[10] & 0xff) != 0xff || (literal[11] & 0xff) != 0xff) {
            return false;
        }
        for (int i = 0; i < 10; i++) {
            if (literal[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** {@link #IPV4} or {@link #IPV6}. */
    public String family() {
        return isIPv4() ? IPV4 : IPV6;
    }

    /** The bits of the literal (netip's BitLen): 32 for dotted IPv4, 128 for any IPv6 literal. */
    public int bitLen() {
        return literal.length * 8;
    }

    /** The address's bytes: 4 for the IPv4 family (Go's To4), else 16. */
    public byte[] bytes() {
        return isIPv4() ? Arrays.copyOfRange(literal, literal.length - 4, literal.length) : literal.clone();
    }

    /** The address's bytes as an unsigned number. */
    public BigInteger toBigInteger() {
        return new BigInteger(1, bytes());
    }

    /** The JDK's form of the address (an {@code Inet4Address} for the IPv4 family); nothing is looked up. */
    public InetAddress toInetAddress() {
        try {
            return InetAddress.getByAddress(bytes());
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // 4 or 16 bytes are always an address
        }
    }

    /** Go's IsUnspecified: {@code 0.0.0.0} or {@code ::}. */
    public boolean isUnspecified() {
        for (byte b : bytes()) {
            if (b != 0) {
                return false;
            }
        }
        return true;
    }

    /** Go's IsLoopback: 127.0.0.0/8 or ::1. */
    public boolean isLoopback() {
        byte[] b = bytes();
        if (b.length == 4) {
            return (b[0] & 0xff) == 127;
        }
        for (int i = 0; i < 15; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return b[15] == 1;
    }

    /** Go's IsLinkLocalUnicast: 169.254.0.0/16 or fe80::/10. */
    public boolean isLinkLocalUnicast() {
        byte[] b = bytes();
        return b.length == 4 ? (b[0] & 0xff) == 169 && (b[1] & 0xff) == 254
                : (b[0] & 0xff) == 0xfe && (b[1] & 0xc0) == 0x80;
    }

    /** Go's IsLinkLocalMulticast: 224.0.0.0/24 or ff02::/16. */
    public boolean isLinkLocalMulticast() {
        byte[] b = bytes();
        return b.length == 4 ? (b[0] & 0xff) == 224 && b[1] == 0 && b[2] == 0
                : (b[0] & 0xff) == 0xff && (b[1] & 0x0f) == 0x02;
    }

    /** The literal's own bytes (16 for a mapped address), for {@link CIDR}. */
    byte[] literal() {
        return literal;
    }

    /**
     * Go's {@code net.IP.String()}: dotted decimal for the IPv4 family, RFC 5952 for IPv6 (lower case,
     * the first longest run of two or more zero groups written {@code ::}).
     */
    @Override
    public String toString() {
        byte[] b = bytes();
        if (b.length == 4) {
            return (b[0] & 0xff) + "." + (b[1] & 0xff) + "." + (b[2] & 0xff) + "." + (b[3] & 0xff);
        }
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
        }
        int zerosStart = -1;
        int zerosLength = 1;
        for (int i = 0; i < 8; i++) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > zerosLength) {
                zerosStart = i;
                zerosLength = j - i;
            }
            i = Math.max(i, j);
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == zerosStart) {
                s.append("::");
                i += zerosLength - 1;
                continue;
            }
            if (s.length() > 0 && s.charAt(s.length() - 1) != ':') {
                s.append(':');
            }
            s.append(Integer.toHexString(groups[i]));
        }
        return s.toString();
    }

    /** Go's {@code net.IP.Equal}: the same address, a mapped one equal to its IPv4 form. */
    @Override
    public boolean equals(Object o) {
        return o instanceof IP other && Arrays.equals(bytes(), other.bytes());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes());
    }

    // ParseIP looks at the first '.' or ':' to choose the family, as Go's does.
    private static IP parse(String s, boolean strict) {
        if (s == null) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '.' || c == ':') {
                byte[] b = c == '.' ? parseIPv4(s, strict) : parseIPv6(s, strict);
                return b == null ? null : new IP(b);
            }
        }
        return null;
    }

    /** Dotted decimal, four octets; {@code strict} refuses a leading zero (Go 1.17 and later). */
    static byte[] parseIPv4(String s, boolean strict) {
        byte[] p = new byte[4];
        int at = 0;
        for (int i = 0; i < 4; i++) {
            if (at >= s.length()) {
                return null;
            }
            if (i > 0) {
                if (s.charAt(at) != '.') {
                    return null;
                }
                at++;
            }
            int start = at;
            int n = 0;
            while (at < s.length() && s.charAt(at) >= '0' && s.charAt(at) <= '9') {
                n = n * 10 + (s.charAt(at) - '0');
                if (n >= BIG) {
                    return null;
                }
                at++;
            }
            if (at == start || n > 0xFF || (strict && at - start > 1 && s.charAt(start) == '0')) {
                return null;
            }
            p[i] = (byte) n;
        }
        return at == s.length() ? p : null;
    }

    /**
     * RFC 4291 text: hex groups, one {@code ::} standing for at least one zero group, and an IPv4 address
     * in the last 32 bits; {@code strict} allows at most four digits a group (netip) and reads the IPv4 part
     * strictly too.
     */
    static byte[] parseIPv6(String s, boolean strict) {
        byte[] ip = new byte[16];
        int ellipsis = -1;
        int at = 0;
        int len = s.length();
        if (len >= 2 && s.charAt(0) == ':' && s.charAt(1) == ':') {
            ellipsis = 0;
            at = 2;
            if (at == len) {
                return ip;
            }
        }
        int i = 0;
        while (i < 16) {
            int start = at;
            int n = 0;
            while (at < len && hex(s.charAt(at)) >= 0) {
                n = n * 16 + hex(s.charAt(at));
                at++;
                if (n >= BIG || (strict && at - start > 4)) {
                    return null;
                }
            }
            if (at == start || n > 0xFFFF) {
                return null;
            }
            if (at < len && s.charAt(at) == '.') {
                if ((ellipsis < 0 && i != 12) || i + 4 > 16) {
                    return null;
                }
                byte[] v4 = parseIPv4(s.substring(start), strict);
                if (v4 == null) {
                    return null;
                }
                System.arraycopy(v4, 0, ip, i, 4);
                at = len;
                i += 4;
                break;
            }
            ip[i] = (byte) (n >> 8);
            ip[i + 1] = (byte) n;
            i += 2;
            if (at == len) {
                break;
            }
            if (s.charAt(at) != ':' || at + 1 == len) {
                return null;
            }
            at++;
            if (s.charAt(at) == ':') {
                if (ellipsis >= 0) {
                    return null;
                }
                ellipsis = i;
                at++;
                if (at == len) {
                    break;
                }
            }
        }
        if (at != len) {
            return null;
        }
        if (i < 16) {
            if (ellipsis < 0) {
                return null;
            }
            int n = 16 - i;
            for (int j = i - 1; j >= ellipsis; j--) {
                ip[j + n] = ip[j];
            }
            Arrays.fill(ip, ellipsis, ellipsis + n, (byte) 0);
        } else if (ellipsis >= 0) {
            return null;
        }
        return ip;
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }
}
