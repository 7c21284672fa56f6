package io.kubelix.runtime.audit;

import io.kubelix.support.net.IP;
import org.eclipse.jetty.server.Request;

import java.util.ArrayList;
import java.util.List;

/**
 * utilnet.SourceIPs: the addresses of {@code X-Forwarded-For}, then {@code X-Real-Ip} unless
 * already named, then the connection's own address unless it is the last one named.
 */
final class SourceIPs {
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
        String remote = remote(Request.getRemoteAddr(request));
        if (remote != null && (ips.isEmpty() || !ips.get(ips.size() - 1).equals(remote))) {
            ips.add(remote);
        }
        return ips;
    }

    /** netutils.ParseIPSloppy, the address in Go's text form; null when {@code s} is not an IP literal. */
    static String parse(String s) {
        IP ip = s == null ? null : IP.parseIPSloppy(s);
        return ip == null ? null : ip.toString();
    }

    /** The connection's address: Jetty writes an IPv6 one in brackets, and a link-local one with its zone. */
    private static String remote(String s) {
        String literal = s != null && s.startsWith("[") && s.endsWith("]") ? s.substring(1, s.length() - 1) : s;
        int zone = literal == null ? -1 : literal.indexOf('%');
        return parse(zone < 0 ? literal : literal.substring(0, zone));
    }
}
