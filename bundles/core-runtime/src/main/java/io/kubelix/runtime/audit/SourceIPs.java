package io.kubelix.runtime.audit;

import org.eclipse.jetty.server.Request;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * utilnet.SourceIPs: the addresses of {@code X-Forwarded-For}, then {@code X-Real-Ip} unless
 * already named, then the connection's own address unless it is the last one named.
 */
final class SourceIPs {
    private static final Pattern IP_LITERAL = Pattern.compile("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*");

    private SourceIPs() {
    }

    static List<String> of(Request request) {
        List<String> ips = new ArrayList<>(1);
        String forwardedFor = request.getHeaders().get("X-Forwarded-For");
        if (forwardedFor != null && !forwardedFor.isEmpty()) {
            for (String part : forwardedFor.split(",")) {
                String ip = parse(part.trim());
                if (ip != null) {
                    ips.add(ip);
                }
            }
        }
        String realIp = request.getHeaders().get("X-Real-Ip");
        if (realIp != null && !realIp.isEmpty()) {
            String ip = parse(realIp.trim());
            if (ip != null && !ips.contains(ip)) {
                ips.add(ip);
            }
        }
        String remote = parse(Request.getRemoteAddr(request));
        if (remote != null && (ips.isEmpty() || !ips.get(ips.size() - 1).equals(remote))) {
            ips.add(remote);
        }
        return ips;
    }

    /** The address in Go's text form, or null when {@code s} is not an IP address literal. */
    static String parse(String s) {
        if (s == null || s.isEmpty()) {
            return null;
        }
        String literal = s.startsWith("[") && s.endsWith("]") ? s.substring(1, s.length() - 1) : s;
        if (!IP_LITERAL.matcher(literal).matches()) {
            return null;
        }
        try {
            // A literal: no name lookup.
            InetAddress a = InetAddress.getByName(literal);
            if (a instanceof java.net.Inet4Address && !literal.contains(".")) {
                return null;
            }
            return a instanceof java.net.Inet6Address ? compressed(a.getHostAddress()) : a.getHostAddress();
        } catch (java.net.UnknownHostException e) {
            return null;
        }
    }

    /** Java writes IPv6 in full ({@code 0:0:0:0:0:0:0:1}); Go compresses the longest run of zeros ({@code ::1}). */
    static String compressed(String full) {
        int zone = full.indexOf('%');
        String addr = zone < 0 ? full : full.substring(0, zone);
        String[] parts = addr.split(":");
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < parts.length; ) {
            if (parts[i].equals("0")) {
                int j = i;
                while (j < parts.length && parts[j].equals("0")) {
                    j++;
                }
                if (j - i > bestLen && j - i > 1) {
                    bestStart = i;
                    bestLen = j - i;
                }
                i = j;
            } else {
                i++;
            }
        }
        if (bestStart < 0) {
            return addr;
        }
        String head = String.join(":", java.util.Arrays.copyOfRange(parts, 0, bestStart));
        String tail = String.join(":", java.util.Arrays.copyOfRange(parts, bestStart + bestLen, parts.length));
        return head + "::" + tail;
    }
}
