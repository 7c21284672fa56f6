package io.kubelix.support.net;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Go's net.ParseCIDR cases (ip_test.go), the sloppy ones of k8s.io/utils/net, and netip.ParsePrefix's stricter rules. */
class CIDRTest {

    /** The text, the address as written, and Go's IPNet.String() of the network. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "135.104.0.0/32, 135.104.0.0, 135.104.0.0/32",
            "0.0.0.0/24, 0.0.0.0, 0.0.0.0/24",
            "135.104.0.0/24, 135.104.0.0, 135.104.0.0/24",
            "135.104.0.1/32, 135.104.0.1, 135.104.0.1/32",
            "135.104.0.1/24, 135.104.0.1, 135.104.0.0/24",
            "::1/128, ::1, ::1/128",
            "abcd:2345::/127, abcd:2345::, abcd:2345::/127",
            "abcd:2345::/65, abcd:2345::, abcd:2345::/65",
            "abcd:2345::/64, abcd:2345::, abcd:2345::/64",
            "abcd:2345::/0, abcd:2345::, ::/0",
            "2001:db8::1/48, 2001:db8::1, 2001:db8::/48",
            "010.001.002.000/24, 10.1.2.0, 10.1.2.0/24",
            "10.0.0.0/024, 10.0.0.0, 10.0.0.0/24",
            "::ffff:1.2.3.0/120, 1.2.3.0, 1.2.3.0/24",
    })
    void sloppy(String text, String ip, String network) {
        CIDR c = CIDR.parseCIDRSloppy(text);
        assertEquals(ip, c.ip().toString());
        assertEquals(network, c.toString());
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"", "10.0.0.0", "nope", "192.168.1.1/255.255.255.0", "192.168.1.1/35", "2001:db8::1/-1",
            "2001:db8::1/-0", "-0.0.0.0/32", "0.-1.0.0/32", "0.0.-2.0/32", "0.0.0.-3/32", "0.0.0.0/-0",
            "1.2.3.4/", "1.2.3.4/+8", "::1/129", "::1%eth0/64", "1.2.3.4/ 8", "localhost/8"})
    void notCIDRs(String s) {
        assertNull(CIDR.parseCIDRSloppy(s), s);
        assertNull(CIDR.parsePrefix(s), s);
    }

    @Test
    void prefixesAreStrict() {
        assertNull(CIDR.parsePrefix("10.0.0.0/024"), "a leading zero in the length");
        assertNull(CIDR.parsePrefix("010.0.0.0/24"), "a leading zero in an octet");
        assertEquals(8, CIDR.parsePrefix("10.0.0.0/8").prefixLength());
        assertEquals(0, CIDR.parsePrefix("::/0").prefixLength());
        assertTrue(CIDR.parsePrefix("::ffff:1.2.3.0/120").ip().is4In6());
        assertNull(CIDR.parsePrefix("::ffff:1.2.3.0/129"));
    }

    @Test
    void familiesAndBits() {
        assertEquals(32, CIDR.parseCIDRSloppy("10.0.0.0/8").bits());
        assertEquals(128, CIDR.parseCIDRSloppy("fd00::/64").bits());
        assertEquals(128, CIDR.parseCIDRSloppy("::ffff:1.2.3.0/120").bits(), "a mapped network keeps 128 bits");
        assertEquals(IP.IPV4, CIDR.parseCIDRSloppy("::ffff:1.2.3.0/120").family());
        assertEquals(IP.IPV6, CIDR.parseCIDRSloppy("fd00::/64").family());
    }

    @Test
    void containsAsIPNetDoes() {
        CIDR net = CIDR.parseCIDRSloppy("10.0.0.0/8");
        assertTrue(net.contains(IP.parseIPSloppy("10.255.0.1")));
        assertFalse(net.contains(IP.parseIPSloppy("11.0.0.1")));
        assertFalse(net.contains(IP.parseIPSloppy("fd00::1")), "another family");
        assertTrue(net.contains(IP.parseIPSloppy("::ffff:10.1.1.1")), "a mapped address is IPv4");
        assertTrue(CIDR.parseCIDRSloppy("::ffff:10.0.0.0/104").contains(IP.parseIPSloppy("10.9.9.9")));
        assertTrue(CIDR.parseCIDRSloppy("0.0.0.0/0").contains(IP.parseIPSloppy("1.2.3.4")));
        assertTrue(CIDR.parseCIDRSloppy("fd00::/64").contains(IP.parseIPSloppy("fd00::ffff")));
        assertFalse(CIDR.parseCIDRSloppy("fd00::/64").contains(IP.parseIPSloppy("fd00:0:0:1::")));
    }
}
