package io.kubelix.resource.core;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * IP address literals as Go's {@code net.ParseIP} reads them: dotted IPv4 without leading zeros,
 * or IPv6 with colons; never a host name (nothing here resolves DNS).
 */
public final class IPAddresses {

    private IPAddresses() {
    }

    /** The address's bytes (4 or 16), or null when {@code text} is not an IP literal. */
    public static byte[] parse(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        if (text.indexOf(':') >= 0) {
            return parseIPv6(text);
        }
        String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        byte[] bytes = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || (p.length() > 1 && p.charAt(0) == '0') || !p.chars().allMatch(Character::isDigit)) {
                return null;
            }
            int v = Integer.parseInt(p);
            if (v > 255) {
                return null;
            }
            bytes[i] = (byte) v;
        }
        return bytes;
    }

    private static byte[] parseIPv6(String text) {
        if (!text.chars().allMatch(c -> c == ':' || c == '.' || Character.digit(c, 16) >= 0)) {
            return null;
        }
        try {
            byte[] bytes = InetAddress.getByName(text).getAddress();
            // An IPv4-mapped literal (::ffff:1.2.3.4) comes back as 4 bytes; Go treats it as IPv4 too.
            return bytes;
        } catch (UnknownHostException | IllegalArgumentException e) {
            return null;
        }
    }

    public static boolean isIP(String text) {
        return parse(text) != null;
    }

    public static boolean isIPv6(String text) {
        byte[] b = parse(text);
        return b != null && b.length == 16;
    }

    /** The address as an unsigned number. */
    public static BigInteger toNumber(byte[] address) {
        return new BigInteger(1, address);
    }

    /** The address of {@code value} in the family of {@code length} bytes, in its canonical text. */
    public static String format(BigInteger value, int length) {
        byte[] raw = value.toByteArray();
        byte[] bytes = new byte[length];
        int copy = Math.min(raw.length, length);
        System.arraycopy(raw, raw.length - copy, bytes, length - copy, copy);
        if (length == 4) {
            return (bytes[0] & 0xff) + "." + (bytes[1] & 0xff) + "." + (bytes[2] & 0xff) + "." + (bytes[3] & 0xff);
        }
        return formatIPv6(bytes);
    }

    /** RFC 5952 text: lower case, the longest run of two or more zero groups as {@code ::}. */
    private static String formatIPv6(byte[] b) {
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = ((b[2 * i] & 0xff) << 8) | (b[2 * i + 1] & 0xff);
        }
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLen && j - i >= 2) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                s.append("::");
                i += bestLen - 1;
                continue;
            }
            if (s.length() > 0 && s.charAt(s.length() - 1) != ':') {
                s.append(':');
            }
            s.append(Integer.toHexString(groups[i]));
        }
        return s.toString();
    }
}
