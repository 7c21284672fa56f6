package io.kubelix.apiextensions.schema;

import io.kubelix.support.net.CIDR;
import io.kubelix.support.net.IP;

import java.net.URI;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The string formats kube's CRD validation checks (kube-openapi's strfmt registry, as
 * apiextensions-apiserver configures it); a format it does not know is not checked, as in kube.
 */
final class Formats {
    private static final Pattern UUID = Pattern.compile(
            "^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$");
    private static final Pattern EMAIL = Pattern.compile("^[^@\\s]+@[^@\\s]+$");
    private static final Pattern HOSTNAME = Pattern.compile(
            "^([a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?)(\\.[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?)*\\.?$");
    private static final Pattern MAC = Pattern.compile("^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$");
    private static final Pattern DURATION = Pattern.compile("^(-?[0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h|d|w))+$");
    private static final Pattern HEXCOLOR = Pattern.compile("^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$");

    private Formats() {
    }

    static boolean valid(String format, String v) {
        try {
            return switch (format) {
                case "date-time", "datetime" -> {
                    OffsetDateTime.parse(v);
                    yield true;
                }
                case "date" -> {
                    LocalDate.parse(v);
                    yield true;
                }
                case "uuid", "uuid3", "uuid4", "uuid5" -> UUID.matcher(v).matches();
                case "email" -> EMAIL.matcher(v).matches();
                case "hostname" -> v.length() <= 255 && HOSTNAME.matcher(v).matches();
                // strfmt's IsIPv4 and IsIPv6 as kube-openapi has them: a sloppy literal with a dot, or with a colon
                case "ipv4" -> IP.parseIPSloppy(v) != null && v.contains(".");
                case "ipv6" -> IP.parseIPSloppy(v) != null && v.contains(":");
                case "cidr" -> CIDR.parseCIDRSloppy(v) != null;
                case "mac" -> MAC.matcher(v).matches();
                case "byte" -> {
                    Base64.getDecoder().decode(v);
                    yield true;
                }
                case "uri" -> URI.create(v).isAbsolute();
                case "duration" -> DURATION.matcher(v).matches();
                case "hexcolor" -> HEXCOLOR.matcher(v).matches();
                default -> true;
            };
        } catch (RuntimeException e) {
            return false;
        }
    }
}
