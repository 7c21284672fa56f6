package io.kubelix.storage.sql;

import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Collections;

/**
 * JDBC drivers register themselves with DriverManager when their class loads; this bundle opens
 * connections without DriverManager, and takes the registrations back when it stops, so an
 * updated or removed bundle leaves no driver (and no class loader) behind.
 */
final class Drivers {

    private Drivers() {
    }

    static void deregister(Class<? extends Driver> type) {
        for (Driver d : Collections.list(DriverManager.getDrivers())) {
            if (type.isInstance(d)) {
                try {
                    DriverManager.deregisterDriver(d);
                } catch (SQLException | SecurityException ignored) {
                    // not ours to take back
                }
            }
        }
    }
}
