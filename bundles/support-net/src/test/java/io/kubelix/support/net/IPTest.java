package io.kubelix.support.net;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.Inet6Address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Go's net.ParseIP cases (ip_test.go) and k8s.io/utils/net's sloppy ones: what parses, to which address. */
class IPTest {

    /** The literal and Go's String() of what ParseIPSloppy makes of it. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "127.0.1.2, 127.0.1.2",
            "127.0.0.1, 127.0.0.1",
            "::ffff:127.1.2.3, 127.1.2.3",
            "::ffff:7f01:0203, 127.1.2.3",
            "0:0:0:0:0000:ffff:127.1.2.3, 127.1.2.3",
            "0:0:0:0:000000:ffff:127.1.2.3, 127.1.2.3",
            "0:0:0:0::ffff:127.1.2.3, 127.1.2.3",
            "2001:4860:0:2001::68, 2001:4860:0:2001::68",
            "2001:4860:0000:2001:0000:0000:0000:0068, 2001:4860:0:2001::68",
            "::, ::",
            "::1, ::1",
            "1::, 1::",
            "2001:db8:0:0:1:0:0:1, 2001:db8::1:0:0:1",
            "2001:DB8::FFFF, 2001:db8::ffff",
            "fe80:0:0:0:0:0:0:1, fe80::1",
            "1:0:1:0:1:0:1:0, 1:0:1:0:1:0:1:0",
            "::1.2.3.4, ::102:304",
            "010.001.002.003, 10.1.2.3",
            "127.001.002.003, 127.1.2.3",
            "::ffff:127.001.002.003, 127.1.2.3",
            "123.000.000.000, 123.0.0.0",
    })
    void sloppyLiterals(String literal, String goString) {
        assertEquals(goString, IP.parseIPSloppy(literal).toString());
    }

    @ParameterizedTest(name = "[{0}]")
    @ValueSource(strings = {"", "a", "localhost", "example.com", "1.2.3", "1.2.3.256", "1.2.3.4.5", "1.2.3.4 ",
            " 1.2.3.4", "-1.2.3.4", "1.2..4", "1.2.3.", "2001:db8::g", "2001:db8::1::1", "1:2:3:4:5:6:7:8:9",
            "1:2:3:4:5:6:7::8", "::1%eth0", "[::1]", "fe80::1%lo", ":1", "1:", "1:::2", "::ffff:1.2.3",
            "1.2.3.4:80", "1:2:3:4:5:6:7:1.2.3.4", "\u0661.2.3.4", "12345678::"})
    void notAddresses(String s) {
        assertNull(IP.parseIPSloppy(s), s);
        assertNull(IP.parseIP(s), s);
    }

    /** Go 1.17 stopped reading leading zeros; kube's sloppy parser still does, netip never did. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"010.001.002.003", "127.001.002.003", "::ffff:127.001.002.003", "1.2.3.04", "00001::"})
    void leadingZerosAreSloppy(String s) {
        assertTrue(IP.parseIPSloppy(s) != null, s);
        assertNull(IP.parseIP(s), s);
    }

    @Test
    void strictParsingStillReadsCanonicalAndMappedLiterals() {
        assertEquals("10.0.0.1", IP.parseIP("10.0.0.1").toString());
        assertEquals("fd00::1", IP.parseIP("fd00:0000::1").toString());
        assertTrue(IP.parseIP("::ffff:1.2.3.4").is4In6());
        assertFalse(IP.parseIP("1.2.3.4").is4In6());
        assertEquals("0.0.0.0", IP.parseIP("0.0.0.0").toString());
    }

    @Test
    void familiesFollowGoTo4() {
        assertTrue(IP.isIPv4String("1.2.3.4"));
        assertTrue(IP.isIPv4String("::ffff:1.2.3.4"), "a mapped address is IPv4");
        assertTrue(IP.isIPv6String("2001:db8::1"));
        assertTrue(IP.isIPv6String("::1.2.3.4"), "an IPv4-compatible address is IPv6");
        assertFalse(IP.isIPv6String("1.2.3.4"));
        assertFalse(IP.isIPv4String("nope"));
        assertEquals(IP.IPV4, IP.parseIPSloppy("::ffff:1.2.3.4").family());
        assertEquals(IP.IPV6, IP.parseIPSloppy("fd00::1").family());
        assertEquals(4, IP.parseIPSloppy("::ffff:1.2.3.4").bytes().length);
        assertEquals(128, IP.parseIPSloppy("::ffff:1.2.3.4").bitLen());
    }

    @Test
    void theJdkFormNeverLooksUpAName() {
        assertEquals("10.1.2.3", IP.parseIPSloppy("010.001.002.003").toInetAddress().getHostAddress());
        assertInstanceOf(Inet6Address.class, IP.parseIPSloppy("2001:db8::1").toInetAddress());
        assertInstanceOf(Inet4Address.class, IP.parseIPSloppy("::ffff:1.2.3.4").toInetAddress(), "Go's To4()");
    }

    @Test
    void numbersAndEquality() {
        assertEquals(BigInteger.valueOf(0x0a000001L), IP.parseIPSloppy("10.0.0.1").toBigInteger());
        assertEquals("10.0.1.0", IP.fromBigInteger(BigInteger.valueOf(0x0a000100L), 4).toString());
        assertEquals("fd00::10", IP.fromBigInteger(IP.parseIPSloppy("fd00::f").toBigInteger().add(BigInteger.ONE), 16).toString());
        assertEquals(IP.parseIPSloppy("1.2.3.4"), IP.parseIPSloppy("::ffff:1.2.3.4"), "Go's Equal");
    }

    @Test
    void specialRangesAsGoNamesThem() {
        assertTrue(IP.parseIPSloppy("0.0.0.0").isUnspecified());
        assertTrue(IP.parseIPSloppy("::").isUnspecified());
        assertTrue(IP.parseIPSloppy("127.9.9.9").isLoopback());
        assertTrue(IP.parseIPSloppy("::1").isLoopback());
        assertFalse(IP.parseIPSloppy("::2").isLoopback());
        assertTrue(IP.parseIPSloppy("169.254.1.1").isLinkLocalUnicast());
        assertTrue(IP.parseIPSloppy("febf::1").isLinkLocalUnicast());
        assertFalse(IP.parseIPSloppy("fec0::1").isLinkLocalUnicast());
        assertTrue(IP.parseIPSloppy("224.0.0.251").isLinkLocalMulticast());
        assertFalse(IP.parseIPSloppy("224.0.1.1").isLinkLocalMulticast());
        assertTrue(IP.parseIPSloppy("ff02::1").isLinkLocalMulticast());
        assertFalse(IP.parseIPSloppy("ff05::1").isLinkLocalMulticast());
    }
}
