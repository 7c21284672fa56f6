package io.kubelix.resource.core.service;

/**
 * The node port range ({@code --service-node-port-range}), as kube's {@code utilnet.PortRange}
 * reads it: {@code 30000-32767}, {@code 30000+2767} or a single port.
 *
 * @param base the first port
 * @param size how many ports
 */
record NodePortRange(int base, int size) {
    static final String DEFAULT = "30000-32767";

    static NodePortRange parse(String text) {
        String value = text == null ? "" : text.trim();
        try {
            int base;
            int max;
            int dash = value.indexOf('-');
            int plus = value.indexOf('+');
            if (dash > 0) {
                base = Integer.parseInt(value.substring(0, dash));
                max = Integer.parseInt(value.substring(dash + 1));
            } else if (plus > 0) {
                base = Integer.parseInt(value.substring(0, plus));
                max = base + Integer.parseInt(value.substring(plus + 1));
            } else {
                base = Integer.parseInt(value);
                max = base;
            }
            if (base < 1 || max > 65535 || max < base) {
                throw new NumberFormatException();
            }
            return new NodePortRange(base, max - base + 1);
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("invalid --service-node-port-range \"" + value
                    + "\": must be a port range such as " + DEFAULT + " (ports 1-65535, the first not above the last)");
        }
    }

    boolean contains(int port) {
        return port >= base && port < base + size;
    }

    int last() {
        return base + size - 1;
    }

    @Override
    public String toString() {
        return base + "-" + last();
    }
}
