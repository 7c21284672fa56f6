package io.kubelix.storage.memory;

import io.kubelix.support.storage.JsonCodec;
import io.kubelix.support.storage.KeyRange;
import io.kubelix.support.storage.WatchEventFilter;
import io.kubelix.support.storage.QueuedWatch;
import io.kubelix.api.storage.StorageErrors;
import io.kubelix.api.storage.ContinueToken;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import java.util.function.IntSupplier;

/**
 * storage.Interface of one resource over the shared {@link MvccStore}. Keys are global paths
 * ({@code /configmaps/default/app}), so every resource of the backend shares one key space and
 * one revision sequence, as in etcd.
 */
final class MemoryStorage implements StorageInterface {
    private static final Versioner VERSIONER = APIObjectVersioner.INSTANCE;

    private final StorageConfig config;
    private final MvccStore store;
    private final JsonCodec codec;
    private final IntSupplier watchQueueSize;

    MemoryStorage(StorageConfig config, MvccStore store, JsonCodec codec, IntSupplier watchQueueSize) {
        this.config = config;
        this.store = store;
        this.codec = codec;
        this.watchQueueSize = watchQueueSize;
    }

    @Override
    public Versioner versioner() {
        return VERSIONER;
    }

    @Override
    public long currentResourceVersion() {
        return store.currentRevision();
    }

    @Override
    public ObjectNode create(String key, ObjectNode obj) {
        byte[] data = codec.encode(key, obj);
        long rev = store.write(key, 0, data);
        if (rev < 0) {
            Version existing = store.latest(key);
            throw StorageException.keyExists(key, existing == null ? 0 : existing.modRevision());
        }
        return codec.decode(key, data, rev);
    }

    @Override
    public ObjectNode delete(String key, Preconditions preconditions, ValidateObjectFunction validateDeletion) {
        return delete(key, preconditions, validateDeletion, null);
    }

    /** Starts from {@code cachedExisting} when it is the latest version (see {@link #latest}). */
    @Override
    public ObjectNode delete(String key, Preconditions preconditions, ValidateObjectFunction validateDeletion,
                             ObjectNode cachedExisting) {
        ObjectNode cached = cachedExisting;
        while (true) {
            Version cur = store.latest(key);
            if (cur == null) {
                throw StorageException.keyNotFound(key);
            }
            ObjectNode obj = latest(key, cur, cached);
            cached = null;
            if (preconditions != null) {
                preconditions.check(key, obj, cur.modRevision());
            }
            if (validateDeletion != null) {
                validateDeletion.validate(obj.deepCopy());
            }
            long rev = store.write(key, cur.modRevision(), null);
            if (rev > 0) {
                VERSIONER.updateObject(obj, rev);
                return obj;
            }
        }
    }

    @Override
    public ObjectNode guaranteedUpdate(String key, boolean ignoreNotFound, Preconditions preconditions,
                                      UpdateFunction tryUpdate) {
        return guaranteedUpdate(key, ignoreNotFound, preconditions, tryUpdate, null);
    }

    /** Starts from {@code cachedExisting} when it is the latest version (see {@link #latest}). */
    @Override
    public ObjectNode guaranteedUpdate(String key, boolean ignoreNotFound, Preconditions preconditions,
                                      UpdateFunction tryUpdate, ObjectNode cachedExisting) {
        ObjectNode cached = cachedExisting;
        while (true) {
            Version cur = store.latest(key);
            if (cur == null && !ignoreNotFound) {
                throw StorageException.keyNotFound(key);
            }
            long curRev = cur == null ? 0 : cur.modRevision();
            ObjectNode obj = cur == null ? null : latest(key, cur, cached);
            cached = null;
            if (preconditions != null) {
                preconditions.check(key, obj == null ? JsonNodeFactory.instance.objectNode() : obj, curRev);
            }
            ObjectNode updated = tryUpdate.apply(obj, curRev);
            if (updated == null) {
                throw new StorageException(StorageException.Code.INVALID_OBJECT, key, curRev,
                        "the update function returned no object for " + key);
            }
            byte[] data = codec.encode(key, updated);
            if (cur != null && codec.sameContent(key, data, cur.data())) {
                return codec.decode(key, cur.data(), curRev);
            }
            long rev = store.write(key, curRev, data);
            if (rev > 0) {
                return codec.decode(key, data, rev);
            }
        }
    }

    /**
     * A fresh tree of {@code cur}: the watch cache's copy when it is of {@code cur}'s revision (it
     * was decoded from the same bytes, so parsing them again would give an equal tree), else the
     * stored bytes decoded. The copy serves a write's first attempt only: a retry decodes.
     */
    private ObjectNode latest(String key, Version cur, ObjectNode cached) {
        if (cached != null && VERSIONER.objectResourceVersion(cached) == cur.modRevision()) {
            return cached;
        }
        return codec.decode(key, cur.data(), cur.modRevision());
    }

    @Override
    public ObjectNode get(String key, GetOptions opts) {
        long minimum = VERSIONER.parseResourceVersion(opts.resourceVersion());
        while (true) {
            long rev = store.currentRevision();
            if (minimum > rev) {
                throw StorageErrors.tooLargeResourceVersion(minimum, rev);
            }
            Version v = store.read(key, rev);
            if (rev >= store.compactedRevision()) {
                if (v != null) {
                    return codec.decode(key, v.data(), v.modRevision());
                }
                if (opts.ignoreNotFound()) {
                    return null;
                }
                throw StorageException.keyNotFound(key);
            }
        }
    }

    @Override
    public ListResult getList(String key, ListOptions opts) {
        KeyRange range = KeyRange.of(key, opts.recursive());
        String token = opts.continueToken();
        if (token != null && !token.isEmpty()) {
            String rv = opts.resourceVersion();
            if (!rv.isEmpty() && !"0".equals(rv)) {
                throw StatusException.badRequest("specifying resource version is not allowed when using continue");
            }
            ContinueToken t = ContinueToken.decode(token);
            if (t.latest()) {
                return listCurrent(range, range.prefix() + t.start(), opts, 0);
            }
            if (t.revision() > store.currentRevision()) {
                throw StatusException.badRequest("continue key is not valid: unknown resource version");
            }
            return listAt(range, t.revision(), range.prefix() + t.start(), opts, true);
        }
        long requested = VERSIONER.parseResourceVersion(opts.resourceVersion());
        if (opts.resourceVersionMatch() == ResourceVersionMatch.EXACT) {
            if (requested == 0) {
                throw StatusException.badRequest("resourceVersionMatch \"Exact\" is forbidden for resourceVersion \"0\"");
            }
            long current = store.currentRevision();
            if (requested > current) {
                throw StorageErrors.tooLargeResourceVersion(requested, current);
            }
            return listAt(range, requested, null, opts, true);
        }
        return listCurrent(range, null, opts, requested);
    }

    /** A page at the current revision, from {@code fromKey} (null: the start), at least at {@code minimum}. */
    private ListResult listCurrent(KeyRange range, String fromKey, ListOptions opts, long minimum) {
        while (true) {
            long current = store.currentRevision();
            if (minimum > current) {
                throw StorageErrors.tooLargeResourceVersion(minimum, current);
            }
            ListResult result = listAt(range, current, fromKey, opts, false);
            if (result != null) {
                return result;
            }
        }
    }

    /**
     * One page at {@code rev}. When {@code rev} is compacted before the page is read, a pinned
     * read (EXACT, continue) is 410 Expired and a current read answers null to be retried.
     */
    private ListResult listAt(KeyRange range, long rev, String fromKey, ListOptions opts, boolean pinned) {
        checkRetained(rev, opts);
        SelectionPredicate predicate = opts.predicate();
        boolean everything = predicate.matchesEverything();
        long limit = range.recursive() ? opts.limit() : 0;
        Page page = new Page();
        store.scan(range, fromKey, rev, (k, v) -> {
            boolean full = limit > 0 && page.items.size() >= limit;
            if (full && everything) {
                page.remaining++;
                return true;
            }
            ObjectNode obj = codec.decode(k, v.data(), v.modRevision());
            if (!everything && !predicate.matches(obj)) {
                return true;
            }
            if (full) {
                page.remaining++;
                return false;
            }
            page.items.add(obj);
            page.lastKey = k;
            return true;
        });
        if (rev < store.compactedRevision()) {
            if (!pinned) {
                return null;
            }
            checkRetained(rev, opts);
        }
        boolean more = page.remaining > 0;
        String next = more ? ContinueToken.after(range.prefix(), rev, page.lastKey).encode() : null;
        return new ListResult(page.items, rev, next, more && everything ? page.remaining : null);
    }

    /** What a scan collects for one page; remaining counts the matches after it (only the first without a predicate). */
    private static final class Page {
        final List<ObjectNode> items = new ArrayList<>();
        String lastKey;
        long remaining;
    }

    private void checkRetained(long rev, ListOptions opts) {
        long compacted = store.compactedRevision();
        if (rev < compacted) {
            throw opts.continueToken() != null && !opts.continueToken().isEmpty()
                    ? StorageErrors.continueExpired(ContinueToken.decode(opts.continueToken()))
                    : StorageErrors.tooOldResourceVersion(rev, compacted);
        }
    }

    @Override
    public long count(String key) {
        KeyRange range = KeyRange.directory(key);
        while (true) {
            long rev = store.currentRevision();
            long[] n = {0};
            store.scan(range, null, rev, (k, v) -> {
                n[0]++;
                return true;
            });
            if (rev >= store.compactedRevision()) {
                return n[0];
            }
        }
    }

    @Override
    public Watch watch(String key, ListOptions opts) {
        KeyRange range = KeyRange.of(key, opts.recursive());
        WatchEventFilter filter = new WatchEventFilter(codec, opts.predicate());
        long from = VERSIONER.parseResourceVersion(opts.resourceVersion());
        QueuedWatch w = store.watch(from, start -> new QueuedWatch(config.groupResource().toString(), range, filter,
                opts.progressNotify(), watchQueueSize.getAsInt(), start, store::unregister, store::bookmarkNow));
        if (from == 0) {
            sendInitialState(w, filter);
        }
        return w;
    }

    /** ADDED for every matching object at the watch's start revision, before any live event. */
    private void sendInitialState(QueuedWatch w, WatchEventFilter filter) {
        long rev = w.startRevision();
        List<WatchEvent> added = new ArrayList<>();
        store.scan(w.range(), null, rev, (k, v) -> {
            ObjectNode obj = codec.decode(k, v.data(), v.modRevision());
            if (filter.matches(obj)) {
                added.add(WatchEvent.of(WatchEvent.Type.ADDED, obj));
            }
            return true;
        });
        long compacted = store.compactedRevision();
        if (rev < compacted) {
            w.fail(StorageErrors.tooOldResourceVersion(rev, compacted));
        } else {
            w.addBacklog(added);
        }
    }
}
