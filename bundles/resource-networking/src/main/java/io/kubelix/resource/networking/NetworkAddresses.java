package io.kubelix.resource.networking;

import io.kubelix.api.validation.IPAddresses;

import java.math.BigInteger;
import java.net.InetAddress;

/**
 * CIDRs and port numbers as apimachinery's validators read them (netutils.ParseCIDRSloppy,
 * IsValidPortNum), without any name lookup; IP literals are core-api's {@link IPAddresses}.
 */
final class NetworkAddresses {
    static final String PORT_RANGE = "must be between 1 and 65535, inclusive";

    /** A network: its address as an unsigned number, its address length in bits and its prefix length. */
    record Cidr(BigInteger address, int bits, int prefix) {
        /** Whether {@code other}'s address lies in this network. */
        boolean contains(Cidr other) {
            if (other.bits != bits) {
                return false;
            }
            int host = bits - prefix;
            return address.shiftRight(host).equals(other.address.shiftRight(host));
        }
    }

    private NetworkAddresses() {
    }

    /** The network of {@code addr/prefix}, or null when it is not one. */
    static Cidr parseCIDR(String s) {
        int slash = s.indexOf('/');
        if (slash < 0) {
            return null;
        }
        String addr = s.substring(0, slash);
        String len = s.substring(slash + 1);
        InetAddress ip = IPAddresses.parse(addr);
        if (ip == null || !len.matches("[0-9]{1,3}")) {
            return null;
        }
        byte[] bytes = ip.getAddress();
        if (addr.contains(":") && bytes.length == 4) {
            // an IPv4-mapped IPv6 literal: its network is an IPv6 one (::ffff:a.b.c.d)
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(bytes, 0, mapped, 12, 4);
            bytes = mapped;
        }
        int bits = bytes.length * 8;
        int prefix = Integer.parseInt(len);
        if (prefix > bits) {
            return null;
        }
        return new Cidr(new BigInteger(1, bytes), bits, prefix);
    }

    /** IsValidPortNum. */
    static boolean validPort(long port) {
        return port >= 1 && port <= 65535;
    }
}
