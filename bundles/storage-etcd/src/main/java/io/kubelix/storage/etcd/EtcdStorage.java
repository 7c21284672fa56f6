package io.kubelix.storage.etcd;

import io.kubelix.support.storage.JsonCodec;
import io.kubelix.api.storage.StorageErrors;
import io.kubelix.api.storage.ContinueToken;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.UnsafeByteOperations;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.storage.APIObjectVersioner;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageException;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.UpdateFunction;
import io.kubelix.api.storage.ValidateObjectFunction;
import io.kubelix.api.storage.Versioner;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;

import java.util.ArrayList;
import java.util.List;

/**
 * storage.Interface of one resource on etcd, as kube-apiserver's etcd3 store: resourceVersion is
 * etcd's mod_revision, writes are transactions comparing the revision that was read, and a failed
 * transaction's else-branch returns the current value so a retry needs no extra read.
 */
final class EtcdStorage implements StorageInterface {
    private static final Versioner VERSIONER = APIObjectVersioner.INSTANCE;

    private final StorageConfig config;
    private final EtcdClient etcd;
    private final Keys keys;
    private final JsonCodec codec;
    private final EtcdWatches watches;

    EtcdStorage(StorageConfig config, EtcdClient etcd, Keys keys, JsonCodec codec, EtcdWatches watches) {
        this.config = config;
        this.etcd = etcd;
        this.keys = keys;
        this.codec = codec;
        this.watches = watches;
    }

    @Override
    public Versioner versioner() {
        return VERSIONER;
    }

    @Override
    public long currentResourceVersion() {
        return etcd.currentRevision();
    }

    @Override
    public ObjectNode create(String key, ObjectNode obj) {
        ByteSequence k = keys.object(key);
        byte[] data = codec.encode(key, obj);
        TxnResponse r = etcd.txn(txn -> txn
                .If(new Cmp(k, Cmp.Op.EQUAL, CmpTarget.createRevision(0)))
                .Then(Op.put(k, value(data), PutOption.DEFAULT))
                .Else(Op.get(k, GetOption.DEFAULT)), key);
        if (!r.isSucceeded()) {
            KeyValue existing = first(r);
            throw StorageException.keyExists(key, existing == null ? 0 : existing.getModRevision());
        }
        return codec.decode(key, data, r.getHeader().getRevision());
    }

    @Override
    public ObjectNode delete(String key, Preconditions preconditions, ValidateObjectFunction validateDeletion) {
        return delete(key, preconditions, validateDeletion, null);
    }

    /** kube's etcd3 Delete: one transaction when {@code cachedExisting} is current (see guaranteedUpdate). */
    @Override
    public ObjectNode delete(String key, Preconditions preconditions, ValidateObjectFunction validateDeletion,
                             ObjectNode cachedExisting) {
        ByteSequence k = keys.object(key);
        State cur = cachedExisting == null ? State.of(read(k, key)) : State.cached(cachedExisting, null);
        while (true) {
            if (cur.absent()) {
                if (!cur.current) {
                    cur = State.of(read(k, key));
                    continue;
                }
                throw StorageException.keyNotFound(key);
            }
            long rev = cur.revision;
            ObjectNode obj = cur.object(codec, key);
            try {
                if (preconditions != null) {
                    preconditions.check(key, obj, rev);
                }
                if (validateDeletion != null) {
                    validateDeletion.validate(obj.deepCopy());
                }
            } catch (RuntimeException e) {
                if (!cur.current) {
                    cur = State.of(read(k, key));
                    continue;
                }
                throw e;
            }
            TxnResponse r = etcd.txn(txn -> txn
                    .If(new Cmp(k, Cmp.Op.EQUAL, CmpTarget.modRevision(rev)))
                    .Then(Op.delete(k, DeleteOption.DEFAULT))
                    .Else(Op.get(k, GetOption.DEFAULT)), key);
            if (r.isSucceeded()) {
                VERSIONER.updateObject(obj, r.getHeader().getRevision());
                return obj;
            }
            cur = State.of(first(r));
        }
    }

    @Override
    public ObjectNode guaranteedUpdate(String key, boolean ignoreNotFound, Preconditions preconditions,
                                      UpdateFunction tryUpdate) {
        return guaranteedUpdate(key, ignoreNotFound, preconditions, tryUpdate, null);
    }

    /**
     * kube's etcd3 GuaranteedUpdate: one transaction when {@code cachedExisting} is current. The
     * cached state is trusted only as far as the transaction's revision comparison: whatever it
     * makes fail (preconditions, the update function, the no-change check) is tried again on the
     * object read from etcd before it counts.
     */
    @Override
    public ObjectNode guaranteedUpdate(String key, boolean ignoreNotFound, Preconditions preconditions,
                                      UpdateFunction tryUpdate, ObjectNode cachedExisting) {
        ByteSequence k = keys.object(key);
        State cur = cachedExisting == null ? State.of(read(k, key))
                : State.cached(cachedExisting, codec.encode(key, cachedExisting));
        while (true) {
            if (cur.absent() && !ignoreNotFound) {
                if (!cur.current) {
                    cur = State.of(read(k, key));
                    continue;
                }
                throw StorageException.keyNotFound(key);
            }
            ObjectNode updated;
            try {
                ObjectNode obj = cur.object(codec, key);
                if (preconditions != null) {
                    preconditions.check(key, obj == null ? JsonNodeFactory.instance.objectNode() : obj, cur.revision);
                }
                updated = tryUpdate.apply(obj, cur.revision);
            } catch (RuntimeException e) {
                if (!cur.current) {
                    cur = State.of(read(k, key));
                    continue;
                }
                throw e;
            }
            if (updated == null) {
                throw new StorageException(StorageException.Code.INVALID_OBJECT, key, cur.revision,
                        "the update function returned no object for " + key);
            }
            byte[] data = codec.encode(key, updated);
            if (!cur.absent() && codec.sameContent(key, data, cur.data)) {
                if (!cur.current) {
                    // Nothing to write against a cached copy proves nothing: the object may have changed since.
                    cur = State.of(read(k, key));
                    continue;
                }
                return codec.decode(key, cur.data, cur.revision);
            }
            Cmp unchanged = cur.absent() ? new Cmp(k, Cmp.Op.EQUAL, CmpTarget.createRevision(0))
                    : new Cmp(k, Cmp.Op.EQUAL, CmpTarget.modRevision(cur.revision));
            TxnResponse r = etcd.txn(txn -> txn
                    .If(unchanged)
                    .Then(Op.put(k, value(data), PutOption.DEFAULT))
                    .Else(Op.get(k, GetOption.DEFAULT)), key);
            if (r.isSucceeded()) {
                return codec.decode(key, data, r.getHeader().getRevision());
            }
            cur = State.of(first(r));
        }
    }

    /**
     * The object a write starts from: its revision (0 when absent), its stored bytes (for a cached
     * copy, its encoding when the write compares contents, else null), and whether it was read
     * from etcd ({@code current}) or is a cached copy, which is handed on as it is.
     */
    private record State(long revision, byte[] data, ObjectNode cached, boolean current) {
        static State of(KeyValue kv) {
            return kv == null ? new State(0, null, null, true)
                    : new State(kv.getModRevision(), kv.getValue().getBytes(), null, true);
        }

        static State cached(ObjectNode obj, byte[] encoded) {
            return new State(VERSIONER.objectResourceVersion(obj), encoded, obj, false);
        }

        boolean absent() {
            return data == null && cached == null;
        }

        /** A fresh tree of this state's object (the cached copy itself, once), or null when absent. */
        ObjectNode object(JsonCodec codec, String key) {
            return cached != null ? cached : absent() ? null : codec.decode(key, data, revision);
        }
    }

    @Override
    public ObjectNode get(String key, GetOptions opts) {
        long minimum = VERSIONER.parseResourceVersion(opts.resourceVersion());
        GetResponse r = etcd.get(keys.object(key), GetOption.DEFAULT, key, 0);
        long current = r.getHeader().getRevision();
        if (minimum > current) {
            throw StorageErrors.tooLargeResourceVersion(minimum, current);
        }
        if (r.getKvs().isEmpty()) {
            if (opts.ignoreNotFound()) {
                return null;
            }
            throw StorageException.keyNotFound(key);
        }
        KeyValue kv = r.getKvs().get(0);
        return codec.decode(key, kv.getValue().getBytes(), kv.getModRevision());
    }

    @Override
    public ListResult getList(String key, ListOptions opts) {
        if (!opts.recursive()) {
            return listOne(key, opts);
        }
        String dir = keys.directory(key);
        String token = opts.continueToken();
        if (token != null && !token.isEmpty()) {
            String rv = opts.resourceVersion();
            if (!rv.isEmpty() && !"0".equals(rv)) {
                throw StatusException.badRequest("specifying resource version is not allowed when using continue");
            }
            ContinueToken t = ContinueToken.decode(token);
            return listPages(dir, dir + t.start(), t.latest() ? 0 : t.revision(), opts, t);
        }
        long requested = VERSIONER.parseResourceVersion(opts.resourceVersion());
        if (opts.resourceVersionMatch() == ResourceVersionMatch.EXACT) {
            if (requested == 0) {
                throw StatusException.badRequest("resourceVersionMatch \"Exact\" is forbidden for resourceVersion \"0\"");
            }
            return listPages(dir, dir, requested, opts, null);
        }
        ListResult result = listPages(dir, dir, 0, opts, null);
        if (requested > result.resourceVersion()) {
            throw StorageErrors.tooLargeResourceVersion(requested, result.resourceVersion());
        }
        return result;
    }

    /** A non-recursive list: the one object at {@code key}, if it matches. */
    private ListResult listOne(String key, ListOptions opts) {
        long requested = VERSIONER.parseResourceVersion(opts.resourceVersion());
        boolean exact = opts.resourceVersionMatch() == ResourceVersionMatch.EXACT;
        long at = exact ? requested : 0;
        GetResponse r = read(keys.object(key), key, GetOption.builder().withRevision(at).build(), at);
        long rev = r.getHeader().getRevision();
        if (!exact && requested > rev) {
            throw StorageErrors.tooLargeResourceVersion(requested, rev);
        }
        List<ObjectNode> items = new ArrayList<>();
        for (KeyValue kv : r.getKvs()) {
            ObjectNode obj = codec.decode(key, kv.getValue().getBytes(), kv.getModRevision());
            if (opts.predicate().matchesEverything() || opts.predicate().matches(obj)) {
                items.add(obj);
            }
        }
        return new ListResult(items, exact ? requested : rev, null, null);
    }

    /**
     * Reads a page of the directory {@code dir} from {@code fromKey} at {@code revision} (0: the
     * current one, which then pins the following reads), fetching more while the predicate leaves
     * the page short, as kube's etcd3 GetList does. {@code continuing} is the continue token read,
     * or null.
     */
    private ListResult listPages(String dir, String fromKey, long revision, ListOptions opts, ContinueToken continuing) {
        SelectionPredicate predicate = opts.predicate();
        boolean everything = predicate.matchesEverything();
        long limit = Math.max(0, opts.limit());
        ByteSequence end = Keys.rangeEnd(dir);
        List<ObjectNode> items = new ArrayList<>();
        long rev = revision;
        String start = fromKey;
        String lastKey = null;
        boolean more;
        Long remaining = null;
        long batch = limit;
        while (true) {
            GetOption option = GetOption.builder().withRange(end).withRevision(rev).withLimit(batch).build();
            GetResponse r;
            try {
                r = etcd.get(Keys.bytes(start), option, dir, rev);
            } catch (StatusException e) {
                throw continuing != null && e.code() == 410 ? StorageErrors.continueExpired(continuing) : e;
            }
            if (rev == 0) {
                rev = r.getHeader().getRevision();
            }
            more = r.isMore();
            boolean full = false;
            for (KeyValue kv : r.getKvs()) {
                if (limit > 0 && items.size() >= limit) {
                    full = true;
                    more = true;
                    break;
                }
                String k = keys.storageKey(kv.getKey());
                lastKey = kv.getKey().toString();
                ObjectNode obj = codec.decode(k, kv.getValue().getBytes(), kv.getModRevision());
                if (everything || predicate.matches(obj)) {
                    items.add(obj);
                }
            }
            if (limit == 0 || !more || full || items.size() >= limit) {
                if (more && everything && limit > 0) {
                    remaining = Math.max(0, r.getCount() - items.size());
                }
                break;
            }
            start = lastKey + "\u0000";
            batch = Math.min(Math.max(batch * 2, limit), 10_000);
        }
        String next = more && lastKey != null
                ? ContinueToken.after(dir, rev, lastKey).encode() : null;
        return new ListResult(items, rev, next, next == null ? null : remaining);
    }

    @Override
    public long count(String key) {
        String dir = keys.directory(key);
        GetResponse r = etcd.get(Keys.bytes(dir), GetOption.builder().withRange(Keys.rangeEnd(dir))
                .withCountOnly(true).build(), dir, 0);
        return r.getCount();
    }

    @Override
    public Watch watch(String key, ListOptions opts) {
        WatchEventFilter filter = new WatchEventFilter(keys, codec, opts.predicate());
        long from = VERSIONER.parseResourceVersion(opts.resourceVersion());
        ByteSequence watchKey;
        ByteSequence rangeEnd = null;
        if (opts.recursive()) {
            String dir = keys.directory(key);
            watchKey = Keys.bytes(dir);
            rangeEnd = Keys.rangeEnd(dir);
        } else {
            watchKey = keys.object(key);
        }
        List<WatchEvent> initial = new ArrayList<>();
        if (from == 0) {
            from = initialState(key, opts, filter, initial);
        }
        String description = config.groupResource() + " " + key + "@" + from;
        return watches.start(description, watchKey, rangeEnd, opts.progressNotify(), filter, from, initial);
    }

    /** ADDED for every object that matches now; returns the revision they were read at. */
    private long initialState(String key, ListOptions opts, WatchEventFilter filter, List<WatchEvent> added) {
        GetResponse r;
        if (opts.recursive()) {
            String dir = keys.directory(key);
            r = etcd.get(Keys.bytes(dir), GetOption.builder().withRange(Keys.rangeEnd(dir)).build(), dir, 0);
        } else {
            r = etcd.get(keys.object(key), GetOption.DEFAULT, key, 0);
        }
        for (KeyValue kv : r.getKvs()) {
            ObjectNode obj = codec.decode(keys.storageKey(kv.getKey()), kv.getValue().getBytes(), kv.getModRevision());
            if (filter.matches(obj)) {
                added.add(WatchEvent.of(WatchEvent.Type.ADDED, obj));
            }
        }
        return r.getHeader().getRevision();
    }

    private KeyValue read(ByteSequence k, String key) {
        GetResponse r = etcd.get(k, GetOption.DEFAULT, key, 0);
        return r.getKvs().isEmpty() ? null : r.getKvs().get(0);
    }

    private GetResponse read(ByteSequence k, String key, GetOption option, long revision) {
        return etcd.get(k, option, key, revision);
    }

    /** The value the failed transaction's else-branch read, or null when the key is gone. */
    /** The encoded object as the put's value, not copied: nothing writes to the encoder's fresh array after this. */
    private static ByteSequence value(byte[] data) {
        return ByteSequence.from(UnsafeByteOperations.unsafeWrap(data));
    }

    private static KeyValue first(TxnResponse r) {
        List<GetResponse> gets = r.getGetResponses();
        if (gets.isEmpty() || gets.get(0).getKvs().isEmpty()) {
            return null;
        }
        return gets.get(0).getKvs().get(0);
    }
}
