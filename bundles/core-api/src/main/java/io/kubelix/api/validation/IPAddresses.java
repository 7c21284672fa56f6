package io.kubelix.api.validation;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * IP address literals as apimachinery's validators read them (netutils.ParseIPSloppy), without any
 * name lookup: dotted-quad IPv4 (leading zeros allowed) and IPv6 literals. Go's
 * {@code ip.To4() != nil} is {@code instanceof Inet4Address} of the result (an IPv4-mapped IPv6
 * literal comes back as IPv4).
 */
public final class IPAddresses {
    private static final Pattern IPV4 = Pattern.compile("(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]+");

    private IPAddresses() {
    }

    /** The address, or null when {@code s} is not an IPv4 or IPv6 literal. */
    public static InetAddress parse(String s) {
        Matcher m = IPV4.matcher(s);
        try {
            if (m.matches()) {
                byte[] b = new byte[4];
                for (int i = 0; i < 4; i++) {
                    int octet = Integer.parseInt(m.group(i + 1));
                    if (octet > 255) {
                        return null;
                    }
                    b[i] = (byte) octet;
                }
                return InetAddress.getByAddress(b);
            }
            if (!s.contains(":") || !IPV6_CHARS.matcher(s).matches()) {
                return null;
            }
            // a string with ':' is parsed as an IPv6 literal, never looked up
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
