package io.kubelix.resource.discovery;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/**
 * IP address literals as Go's net.ParseIP (netutils.ParseIPSloppy) reads them, without any name
 * lookup: dotted-quad IPv4 (leading zeros allowed), and IPv6 literals.
 */
final class EndpointIPs {
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]+");

    private EndpointIPs() {
    }

    /** The address, or null when {@code s} is not an IP literal. */
    static InetAddress parse(String s) {
        var m = IPV4.matcher(s);
        if (m.matches()) {
            byte[] b = new byte[4];
            for (int i = 0; i < 4; i++) {
                int octet = Integer.parseInt(m.group(i + 1));
                if (octet > 255) {
                    return null;
                }
                b[i] = (byte) octet;
            }
            return address(b);
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

    /** Go's {@code ip.To4() != nil}: an IPv4 address or an IPv4-mapped IPv6 one. */
    static boolean isIPv4(InetAddress ip) {
        return ip instanceof Inet4Address;
    }

    private static InetAddress address(byte[] b) {
        try {
            return InetAddress.getByAddress(b);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
