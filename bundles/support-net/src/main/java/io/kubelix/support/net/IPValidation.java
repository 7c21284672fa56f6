package io.kubelix.support.net;

import java.util.ArrayList;
import java.util.List;

/**
 * apimachinery's IP and CIDR validators (k8s.io/apimachinery/pkg/util/validation, ip.go) and kube's
 * ValidateEndpointIP, with their messages: each returns the messages of what is wrong, empty when
 * the value is valid, for the caller to attach to its field.
 */
public final class IPValidation {
    public static final String INVALID_IP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
    public static final String INVALID_IPV4 = "must be a valid IPv4 address";
    public static final String INVALID_IPV6 = "must be a valid IPv6 address";
    public static final String INVALID_CIDR = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

    private IPValidation() {
    }

    /** IsValidIP: a literal {@link IP#parseIPSloppy} reads. */
    public static List<String> isValidIP(String value) {
        return IP.parseIPSloppy(value) == null ? List.of(INVALID_IP) : List.of();
    }

    /** IsValidIPv4Address: a sloppy literal of the IPv4 family (an IPv4-mapped IPv6 one included). */
    public static List<String> isValidIPv4Address(String value) {
        return IP.isIPv4String(value) ? List.of() : List.of(INVALID_IPV4);
    }

    /** IsValidIPv6Address: a sloppy literal of the IPv6 family. */
    public static List<String> isValidIPv6Address(String value) {
        return IP.isIPv6String(value) ? List.of() : List.of(INVALID_IPV6);
    }

    /** IsValidCIDR: a CIDR {@link CIDR#parseCIDRSloppy} reads. */
    public static List<String> isValidCIDR(String value) {
        return CIDR.parseCIDRSloppy(value) == null ? List.of(INVALID_CIDR) : List.of();
    }

    /**
     * ValidateEndpointIP (pkg/apis/core/validation): what Endpoints, EndpointSlices and a Service's
     * externalIPs may not point at. Every problem is reported, as kube does.
     */
    public static List<String> validateEndpointIP(String value) {
        IP ip = IP.parseIPSloppy(value);
        if (ip == null) {
            return List.of("must be a valid IP address");
        }
        List<String> errs = new ArrayList<>();
        if (ip.isUnspecified()) {
            errs.add("may not be unspecified (" + value + ")");
        }
        if (ip.isLoopback()) {
            errs.add("may not be in the loopback range (127.0.0.0/8, ::1/128)");
        }
        if (ip.isLinkLocalUnicast()) {
            errs.add("may not be in the link-local range (169.254.0.0/16, fe80::/10)");
        }
        if (ip.isLinkLocalMulticast()) {
            errs.add("may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)");
        }
        return errs;
    }
}
