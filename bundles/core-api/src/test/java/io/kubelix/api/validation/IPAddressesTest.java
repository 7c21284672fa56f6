package io.kubelix.api.validation;

import org.junit.jupiter.api.Test;

import java.net.Inet4Address;
import java.net.Inet6Address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

/** ParseIPSloppy's rules: what apimachinery's IP validation accepts, and that no name is ever looked up. */
class IPAddressesTest {

    @Test
    void dottedQuadsWithLeadingZerosAreIPv4() {
        assertEquals("10.1.2.3", IPAddresses.parse("010.001.002.003").getHostAddress());
        assertNull(IPAddresses.parse("1.2.3.256"));
        assertNull(IPAddresses.parse("1.2.3"));
    }

    @Test
    void ipv6LiteralsAndMappedIPv4() {
        assertInstanceOf(Inet6Address.class, IPAddresses.parse("2001:db8::1"));
        assertInstanceOf(Inet4Address.class, IPAddresses.parse("::ffff:1.2.3.4"), "Go's To4() of a mapped address");
        assertNull(IPAddresses.parse("2001:db8::g"));
    }

    @Test
    void namesAreNotAddresses() {
        assertNull(IPAddresses.parse("localhost"));
        assertNull(IPAddresses.parse("example.com"));
        assertNull(IPAddresses.parse(""));
    }
}
