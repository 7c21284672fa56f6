package io.kubelix.resource.networking;

/** apimachinery's IsValidPortNum, with its message. */
final class Ports {
    static final String PORT_RANGE = "must be between 1 and 65535, inclusive";

    private Ports() {
    }

    /** IsValidPortNum. */
    static boolean validPort(long port) {
        return port >= 1 && port <= 65535;
    }
}
