package io.kubelix.runtime.controller.bootstrap;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.StorageException;
import io.kubelix.api.storage.StorageInterface;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * kube's storageLeases of the lease endpoint reconciler: one record per API server under
 * {@code /masterleases/<advertised IP>} in the servers' shared storage. kube gives each record an etcd
 * TTL; the storage SPI has none, so a record carries its renew time and one older than the TTL
 * counts as expired, and is deleted by the next server that lists the leases.
 */
final class MasterLeases {
    static final String PREFIX = "/masterleases";

    private final StorageInterface storage;
    private final Duration ttl;
    private final Clock clock;

    /** @param storage the raw storage under {@link #PREFIX} */
    MasterLeases(StorageInterface storage, Duration ttl, Clock clock) {
        this.storage = storage;
        this.ttl = ttl;
        this.clock = clock;
    }

    /** Writes this server's record again with the current time (kube's UpdateLease). */
    void update(String ip) {
        long now = clock.millis();
        storage.guaranteedUpdate(key(ip), true, Preconditions.NONE, (current, rev) -> {
            ObjectNode lease = JsonNodeFactory.instance.objectNode();
            lease.putObject("metadata").put("name", ip);
            lease.put("ip", ip).put("renewTime", now);
            return lease;
        });
    }

    /** The IPs of the live leases, sorted and distinct (kube's ListLeases); expired records are deleted. */
    SortedSet<String> list() {
        long now = clock.millis();
        SortedSet<String> live = new TreeSet<>();
        List<String> expired = new ArrayList<>();
        for (ObjectNode lease : storage.getList(PREFIX, ListOptions.recursiveAll()).items()) {
            String ip = lease.path("ip").asText();
            if (ip.isEmpty()) {
                continue;
            }
            if (expired(lease, now)) {
                expired.add(ip);
            } else {
                live.add(ip);
            }
        }
        for (String ip : expired) {
            try {
                // Only while still expired: the server may have come back and renewed it meanwhile.
                storage.delete(key(ip), Preconditions.NONE, current -> {
                    if (!expired(current, clock.millis())) {
                        throw new LeaseRenewed();
                    }
                });
            } catch (StorageException | LeaseRenewed e) {
                // Gone or renewed meanwhile: either way not ours to delete now.
            }
        }
        return live;
    }

    /** Deletes this server's record (kube's RemoveLease); nothing when there is none. */
    void remove(String ip) {
        try {
            storage.delete(key(ip), Preconditions.NONE, current -> { });
        } catch (StorageException e) {
            if (e.code() != StorageException.Code.KEY_NOT_FOUND) {
                throw e;
            }
        }
    }

    private boolean expired(ObjectNode lease, long now) {
        return lease.path("renewTime").asLong(0) + ttl.toMillis() < now;
    }

    private static String key(String ip) {
        return PREFIX + "/" + ip;
    }

    /** Aborts the deletion of a lease that is live again. */
    private static final class LeaseRenewed extends RuntimeException {
        LeaseRenewed() {
            super(null, null, false, false);
        }
    }
}
