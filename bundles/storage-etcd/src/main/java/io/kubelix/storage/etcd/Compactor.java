package io.kubelix.storage.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.kubelix.api.errors.StatusException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's compactor: every interval each instance runs one transaction on
 * {@code compact_rev_key}, "if its version is still the one I saw last time, put the revision I
 * saw last time". The instance whose transaction succeeds compacts to that revision; the others
 * learn the new version and try again next interval. So however many instances share an etcd,
 * history is compacted once per interval and always keeps at least one interval of it.
 */
final class Compactor {
    /** The key the instances coordinate through (kube's, outside the key prefix, so kube and Kubelix agree). */
    static final String COMPACT_REV_KEY = "compact_rev_key";
    private static final Logger LOG = LoggerFactory.getLogger(Compactor.class);

    private final EtcdClient etcd;
    private final ByteSequence key = Keys.bytes(COMPACT_REV_KEY);
    /** The version of compact_rev_key this instance last saw. */
    private long version;
    /** The revision this instance saw at its last run: the next compaction's target. */
    private long revision;

    Compactor(EtcdClient etcd) {
        this.etcd = etcd;
    }

    /** One run; called every interval from one thread. Failures are logged and retried next time. */
    void run() {
        long expected = version;
        long target = revision;
        TxnResponse r;
        try {
            r = etcd.txn(txn -> txn
                    .If(new Cmp(key, Cmp.Op.EQUAL, CmpTarget.version(expected)))
                    .Then(Op.put(key, Keys.bytes(Long.toString(target)), PutOption.DEFAULT))
                    .Else(Op.get(key, GetOption.DEFAULT)), COMPACT_REV_KEY);
        } catch (RuntimeException e) {
            LOG.warn("etcd compaction skipped: {}", e.getMessage());
            return;
        }
        revision = r.getHeader().getRevision();
        if (!r.isSucceeded()) {
            KeyValue kv = r.getGetResponses().isEmpty() || r.getGetResponses().get(0).getKvs().isEmpty() ? null
                    : r.getGetResponses().get(0).getKvs().get(0);
            version = kv == null ? 0 : kv.getVersion();
            LOG.debug("etcd compaction left to another instance (compact_rev_key version {})", version);
            return;
        }
        version = expected + 1;
        if (target == 0) {
            return;
        }
        try {
            etcd.compact(target);
            LOG.info("etcd history compacted to revision {}", target);
        } catch (RuntimeException e) {
            if (e instanceof StatusException s && s.code() == 410) {
                LOG.debug("etcd already compacted past revision {}", target);
            } else {
                LOG.warn("etcd compaction to revision {} failed: {}", target, e.getMessage());
            }
        }
    }
}
