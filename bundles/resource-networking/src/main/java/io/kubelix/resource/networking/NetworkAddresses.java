package io.kubelix.resource.networking;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * IP addresses, CIDRs, ports and port names as apimachinery's validators read them
 * (netutils.ParseIPSloppy, ParseCIDRSloppy, IsValidPortNum, IsValidPortName), without any name
 * lookup.
 */
final class NetworkAddresses {
    static final String PORT_RANGE = "must be between 1 and 65535, inclusive";
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]+");
    private static final Pattern PORT_NAME_CHARSET = Pattern.compile("[-a-z0-9]+");
    private static final Pattern ONE_LETTER = Pattern.compile(".*[a-z].*");
    private static final int PORT_NAME_MAX_LENGTH = 15;

    /** A network: its address as an unsigned number, its address length in bits and its prefix length. */
    record Cidr(BigInteger address, int bits, int prefix) {
        /** Whether {@code other}'s address lies in this network. */
        boolean contains(Cidr other) {
            if (other.bits != bits) {
                return false;
            }
            int host = bits - prefix;
            return address.shiftRight(host).equals(other.address.shiftRight(host));
        }
    }

    private NetworkAddresses() {
    }

    /** The address, or null when {@code s} is not an IPv4 or IPv6 literal. */
    static InetAddress parseIP(String s) {
        Matcher m = IPV4.matcher(s);
        if (m.matches()) {
            byte[] b = new byte[4];
            for (int i = 0; i < 4; i++) {
                int octet = Integer.parseInt(m.group(i + 1));
                if (octet > 255) {
                    return null;
                }
                b[i] = (byte) octet;
            }
            try {
                return InetAddress.getByAddress(b);
            } catch (UnknownHostException e) {
                return null;
            }
        }
        if (!s.contains(":") || !IPV6_CHARS.matcher(s).matches()) {
            return null;
        }
        try {
            // a string with ':' is parsed as an IPv6 literal, never looked up
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** The network of {@code addr/prefix}, or null when it is not one. */
    static Cidr parseCIDR(String s) {
        int slash = s.indexOf('/');
        if (slash < 0) {
            return null;
        }
        String addr = s.substring(0, slash);
        String len = s.substring(slash + 1);
        InetAddress ip = parseIP(addr);
        if (ip == null || !len.matches("[0-9]{1,3}")) {
            return null;
        }
        byte[] bytes = ip.getAddress();
        if (addr.contains(":") && bytes.length == 4) {
            // an IPv4-mapped IPv6 literal: its network is an IPv6 one (::ffff:a.b.c.d)
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(bytes, 0, mapped, 12, 4);
            bytes = mapped;
        }
        int bits = bytes.length * 8;
        int prefix = Integer.parseInt(len);
        if (prefix > bits) {
            return null;
        }
        return new Cidr(new BigInteger(1, bytes), bits, prefix);
    }

    /** IsValidPortNum. */
    static boolean validPort(long port) {
        return port >= 1 && port <= 65535;
    }

    /** IsValidPortName: an IANA service name. */
    static java.util.List<String> portNameErrors(String name) {
        java.util.List<String> errs = new java.util.ArrayList<>();
        if (name.length() > PORT_NAME_MAX_LENGTH) {
            errs.add("must be no more than " + PORT_NAME_MAX_LENGTH + " characters");
        }
        if (!PORT_NAME_CHARSET.matcher(name).matches()) {
            errs.add("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
        }
        if (!ONE_LETTER.matcher(name).matches()) {
            errs.add("must contain at least one letter (a-z)");
        }
        if (name.contains("--")) {
            errs.add("must not contain consecutive hyphens");
        }
        if (!name.isEmpty() && (name.startsWith("-") || name.endsWith("-"))) {
            errs.add("must not begin or end with a hyphen");
        }
        return errs;
    }
}
