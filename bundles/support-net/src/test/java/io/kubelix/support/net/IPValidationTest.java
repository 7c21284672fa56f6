package io.kubelix.support.net;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** apimachinery's validation/ip_test.go cases and their messages. */
class IPValidationTest {

    @Test
    void isValidIP() {
        for (String ok : List.of("0.0.0.0", "1.1.1.1", "255.255.255.255", "::1", "2001:db8::ffff", "::ffff:1.2.3.4",
                "001.002.003.004", "1:2:3:4:5:6:7:8")) {
            assertEquals(List.of(), IPValidation.isValidIP(ok), ok);
        }
        for (String bad : List.of("", " ", "1.2.3.4.5", "1.2.3.256", "1.2.3", "localhost", "2001:db8::1::1", "1.2.3.4/24")) {
            assertEquals(List.of("must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"), IPValidation.isValidIP(bad), bad);
        }
    }

    @Test
    void families() {
        assertEquals(List.of(), IPValidation.isValidIPv4Address("::ffff:1.2.3.4"));
        assertEquals(List.of("must be a valid IPv4 address"), IPValidation.isValidIPv4Address("2001:db8::1"));
        assertEquals(List.of(), IPValidation.isValidIPv6Address("2001:db8::1"));
        assertEquals(List.of("must be a valid IPv6 address"), IPValidation.isValidIPv6Address("::ffff:1.2.3.4"));
        assertEquals(List.of("must be a valid IPv6 address"), IPValidation.isValidIPv6Address("nope"));
    }

    @Test
    void isValidCIDR() {
        for (String ok : List.of("0.0.0.0/0", "1.2.3.0/24", "1.2.3.4/32", "::/0", "2001:db8::/64", "::ffff:1.2.3.0/120",
                "1.2.3.4/24", "001.002.003.000/24")) {
            assertEquals(List.of(), IPValidation.isValidCIDR(ok), ok);
        }
        for (String bad : List.of("", "1.2.3.4", "1.2.3.0/33", "::/129", "2001:db8::1::/64", "1.2.3.0/-1", "a/24")) {
            assertEquals(List.of("must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)"),
                    IPValidation.isValidCIDR(bad), bad);
        }
    }

    @Test
    void endpointIPsMayNotBeSpecial() {
        assertEquals(List.of(), IPValidation.validateEndpointIP("10.1.2.3"));
        assertEquals(List.of("must be a valid IP address"), IPValidation.validateEndpointIP("nope"));
        assertEquals(List.of("may not be unspecified (0.0.0.0)"), IPValidation.validateEndpointIP("0.0.0.0"));
        assertEquals(List.of("may not be unspecified (::)"), IPValidation.validateEndpointIP("::"));
        assertEquals(List.of("may not be in the loopback range (127.0.0.0/8, ::1/128)"), IPValidation.validateEndpointIP("127.0.0.2"));
        assertEquals(List.of("may not be in the link-local range (169.254.0.0/16, fe80::/10)"),
                IPValidation.validateEndpointIP("fe80::1"));
        assertEquals(List.of("may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)"),
                IPValidation.validateEndpointIP("224.0.0.1"));
        assertEquals(List.of(), IPValidation.validateEndpointIP("239.1.1.1"), "global multicast passes, as in kube");
    }
}
