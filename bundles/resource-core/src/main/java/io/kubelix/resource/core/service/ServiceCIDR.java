package io.kubelix.resource.core.service;

import io.kubelix.support.net.CIDR;
import io.kubelix.support.net.IP;

import java.math.BigInteger;

/**
 * The service cluster IP range ({@code --service-cluster-ip-range}) as kube's IP allocator sees it:
 * the addresses of a CIDR without its network address, and for IPv4 without its broadcast address,
 * numbered by offset from the first usable one.
 *
 * @param cidr   the range as configured, normalised ({@code 10.0.0.0/24})
 * @param family {@code IPv4} or {@code IPv6}
 * @param base   the first usable address
 * @param size   how many addresses can be allocated
 */
record ServiceCIDR(String cidr, String family, BigInteger base, int size, int addressLength) {
    static final String DEFAULT = "10.0.0.0/24";
    static final String IPV4 = "IPv4";
    static final String IPV6 = "IPv6";

    /**
     * Parses a CIDR. Kube-apiserver refuses ranges of more than 2^20 addresses (IPv4 masks under
     * /12, IPv6 under /108), and ranges with no usable address.
     *
     * @throws IllegalArgumentException with a message naming the flag
     */
    static ServiceCIDR parse(String text) {
        String value = text == null ? "" : text.trim();
        CIDR parsed = CIDR.parseCIDRSloppy(value);
        byte[] ip = parsed == null ? null : parsed.ip().bytes();
        int bits = parsed == null ? -1 : parsed.prefixLength();
        if (ip == null || bits > ip.length * 8) {
            throw new IllegalArgumentException("invalid --service-cluster-ip-range \"" + value
                    + "\": must be a CIDR such as " + DEFAULT);
        }
        int hostBits = ip.length * 8 - bits;
        if (hostBits > 20) {
            throw new IllegalArgumentException("invalid --service-cluster-ip-range \"" + value + "\": the range is too "
                    + "large; for " + (ip.length * 8) + "-bit addresses the mask must be >= " + (ip.length * 8 - 20));
        }
        BigInteger mask = BigInteger.ONE.shiftLeft(ip.length * 8).subtract(BigInteger.ONE.shiftLeft(hostBits));
        BigInteger network = new BigInteger(1, ip).and(mask);
        int size = (1 << hostBits) - (ip.length == 4 ? 2 : 1);
        if (size < 1) {
            throw new IllegalArgumentException("invalid --service-cluster-ip-range \"" + value
                    + "\": the range has no address to allocate");
        }
        String normal = IP.fromBigInteger(network, ip.length) + "/" + bits;
        return new ServiceCIDR(normal, ip.length == 4 ? IPV4 : IPV6, network.add(BigInteger.ONE), size, ip.length);
    }

    /** The offset of {@code ip} in the range, or -1 when it is outside (or not an IP of this family). */
    int offsetOf(String ip) {
        IP address = IP.parseIPSloppy(ip);
        if (address == null || address.bytes().length != addressLength) {
            return -1;
        }
        BigInteger diff = address.toBigInteger().subtract(base);
        return diff.signum() < 0 || diff.compareTo(BigInteger.valueOf(size)) >= 0 ? -1 : diff.intValue();
    }

    /** The address at {@code offset}. */
    String addressAt(int offset) {
        return IP.fromBigInteger(base.add(BigInteger.valueOf(offset)), addressLength).toString();
    }

    @Override
    public String toString() {
        return cidr;
    }
}
