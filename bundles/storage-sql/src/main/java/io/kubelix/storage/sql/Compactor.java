package io.kubelix.storage.sql;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;


/**
 * kube-apiserver's compaction schedule: every interval, compact to the revision seen at the
 * previous run, so at least one interval of history is always kept for watches and continued
 * lists. Servers sharing a database compact one at a time (the dialect's lead) and skip a run
 * another server's compaction has already covered.
 */
final class Compactor {
    private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

    private final SqlStore store;
    /** The revision seen at the last run: the next compaction's target. */
    private long target;

    Compactor(SqlStore store) {
        this.store = store;
    }

    /** One run; called every interval from one thread. Failures are logged and retried next time. */
    void run() {
        String name = store.dialect().name();
        try (AutoCloseable lead = store.dialect().compactionLead()) {
            if (lead == null) {
                LOG.debug("{} storage compaction left to the server compacting now", name);
                return;
            }
            long[] state = store.log().read(c -> new long[] {SqlLog.meta(c, SqlLog.REVISION),
                    SqlLog.meta(c, SqlLog.COMPACTED)});
            long revision = target;
            target = state[0];
            if (revision <= state[1]) {
                return;
            }
            long started = System.nanoTime();
            long deleted = store.compact(revision);
            LOG.info("{} storage compacted to revision {}: {} old versions dropped in {} ms", name, revision, deleted,
                    (System.nanoTime() - started) / 1_000_000);
        } catch (Exception e) {
            LOG.warn("{} storage compaction failed: {}", name, e.getMessage());
        }
    }
}
