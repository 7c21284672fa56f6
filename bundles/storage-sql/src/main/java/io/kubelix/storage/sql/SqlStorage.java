package io.kubelix.storage.sql;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.storage.APIObjectVersioner;
import io.kubelix.api.storage.ContinueToken;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.ResourceVersionMatch;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.StorageConfig;
import io.kubelix.api.storage.StorageErrors;
import io.kubelix.api.storage.StorageException;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.UpdateFunction;
import io.kubelix.api.storage.ValidateObjectFunction;
import io.kubelix.api.storage.Versioner;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;
import io.kubelix.support.storage.JsonCodec;
import io.kubelix.support.storage.KeyRange;
import io.kubelix.support.storage.QueuedWatch;
import io.kubelix.support.storage.WatchEventFilter;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * storage.Interface of one resource over the shared {@link SqlStore}: every resource shares one
 * key space and one revision sequence, as in etcd. Each write is a transaction conditional on the
 * revision of the key's last write; a lost race reads again and retries, as etcd3's store does.
 */
final class SqlStorage implements StorageInterface {
    private static final Versioner VERSIONER = APIObjectVersioner.INSTANCE;

    private final StorageConfig config;
    private final SqlStore store;
    private final JsonCodec codec;
    private final IntSupplier watchQueueSize;

    SqlStorage(StorageConfig config, SqlStore store, JsonCodec codec, IntSupplier watchQueueSize) {
        this.config = config;
        this.store = store;
        this.codec = codec;
        this.watchQueueSize = watchQueueSize;
    }

    /** Database work whose SQLException becomes the contract's error for {@code key}. */
    @FunctionalInterface
    private interface Sql<T> {
        T run() throws SQLException;
    }

    private <T> T sql(String key, Sql<T> work) {
        try {
            return work.run();
        } catch (SQLException e) {
            throw SqlErrors.map(e, store.dialect().name(), key);
        }
    }

    private <T> T read(String key, Connections.Work<T> work) {
        return sql(key, () -> store.log().read(work));
    }

    @Override
    public Versioner versioner() {
        return VERSIONER;
    }

    @Override
    public long currentResourceVersion() {
        return sql(config.resourcePrefix(), store::currentRevision);
    }

    @Override
    public ObjectNode create(String key, ObjectNode obj) {
        byte[] data = codec.encode(key, obj);
        SqlLog.WriteResult r = sql(key, () -> store.write(key, 0, data, null));
        if (r.revision() < 0) {
            throw StorageException.keyExists(key, r.current());
        }
        return codec.decode(key, data, r.revision());
    }

    @Override
    public ObjectNode delete(String key, Preconditions preconditions, ValidateObjectFunction validateDeletion) {
        while (true) {
            SqlLog.Version cur = read(key, c -> SqlLog.latest(c, key));
            if (cur == null) {
                throw StorageException.keyNotFound(key);
            }
            ObjectNode obj = codec.decode(key, cur.data(), cur.modRevision());
            if (preconditions != null) {
                preconditions.check(key, obj, cur.modRevision());
            }
            if (validateDeletion != null) {
                validateDeletion.validate(obj);
            }
            SqlLog.WriteResult r = sql(key, () -> store.write(key, cur.modRevision(), null, cur.data()));
            if (r.revision() > 0) {
                return codec.decode(key, cur.data(), r.revision());
            }
        }
    }

    @Override
    public ObjectNode guaranteedUpdate(String key, boolean ignoreNotFound, Preconditions preconditions,
                                      UpdateFunction tryUpdate) {
        while (true) {
            SqlLog.Version cur = read(key, c -> SqlLog.latest(c, key));
            if (cur == null && !ignoreNotFound) {
                throw StorageException.keyNotFound(key);
            }
            long curRev = cur == null ? 0 : cur.modRevision();
            ObjectNode obj = cur == null ? null : codec.decode(key, cur.data(), curRev);
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
            SqlLog.WriteResult r = sql(key, () -> store.write(key, curRev, data, cur == null ? null : cur.data()));
            if (r.revision() > 0) {
                return codec.decode(key, data, r.revision());
            }
        }
    }

    @Override
    public ObjectNode get(String key, GetOptions opts) {
        long minimum = VERSIONER.parseResourceVersion(opts.resourceVersion());
        SqlLog.Version v = read(key, c -> {
            long rev = SqlLog.meta(c, SqlLog.REVISION);
            if (minimum > rev) {
                throw StorageErrors.tooLargeResourceVersion(minimum, rev);
            }
            return SqlLog.latest(c, key);
        });
        if (v != null) {
            return codec.decode(key, v.data(), v.modRevision());
        }
        if (opts.ignoreNotFound()) {
            return null;
        }
        throw StorageException.keyNotFound(key);
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
            String from = range.prefix() + t.start();
            return read(key, c -> t.latest() ? list(c, range, 0, from, opts, 0)
                    : list(c, range, t.revision(), from, opts, 0));
        }
        long requested = VERSIONER.parseResourceVersion(opts.resourceVersion());
        if (opts.resourceVersionMatch() == ResourceVersionMatch.EXACT) {
            if (requested == 0) {
                throw StatusException.badRequest("resourceVersionMatch \"Exact\" is forbidden for resourceVersion \"0\"");
            }
            return read(key, c -> list(c, range, requested, null, opts, 0));
        }
        return read(key, c -> list(c, range, 0, null, opts, requested));
    }

    /**
     * One page, in one read transaction: at {@code revision}, or now when it is 0 (then at least
     * at {@code minimum}), from {@code fromKey} (null: the start).
     */
    private ListResult list(Connection c, KeyRange range, long revision, String fromKey, ListOptions opts,
                            long minimum) throws SQLException {
        long current = SqlLog.meta(c, SqlLog.REVISION);
        long rev = revision == 0 ? current : revision;
        if (revision == 0 && minimum > current) {
            throw StorageErrors.tooLargeResourceVersion(minimum, current);
        }
        if (revision > current) {
            if (opts.continueToken() != null && !opts.continueToken().isEmpty()) {
                throw StatusException.badRequest("continue key is not valid: unknown resource version");
            }
            throw StorageErrors.tooLargeResourceVersion(revision, current);
        }
        long compacted = SqlLog.meta(c, SqlLog.COMPACTED);
        if (revision != 0 && revision < compacted) {
            throw opts.continueToken() != null && !opts.continueToken().isEmpty()
                    ? StorageErrors.continueExpired(ContinueToken.decode(opts.continueToken()))
                    : StorageErrors.tooOldResourceVersion(revision, compacted);
        }
        SelectionPredicate predicate = opts.predicate();
        boolean everything = predicate.matchesEverything();
        long limit = range.recursive() ? opts.limit() : 0;
        if (limit <= 0) {
            // A whole list: decoded while the next rows are read.
            RowDecoder decoder = new RowDecoder(codec, predicate);
            SqlLog.scan(c, range, fromKey, revision, (k, modRevision, data) -> {
                decoder.add(k, modRevision, data);
                return true;
            });
            return new ListResult(decoder.finish(), rev, null, null);
        }
        List<ObjectNode> items = new ArrayList<>();
        String[] lastKey = {null};
        boolean[] more = {false};
        SqlLog.scan(c, range, fromKey, revision, (k, modRevision, data) -> {
            if (items.size() >= limit) {
                more[0] = true;
                return false;
            }
            ObjectNode obj = codec.decode(k, data, modRevision);
            if (everything || predicate.matches(obj)) {
                items.add(obj);
                lastKey[0] = k;
            }
            return true;
        });
        Long remaining = null;
        if (more[0] && everything) {
            remaining = SqlLog.count(c, range, lastKey[0], revision);
        }
        String next = more[0] ? ContinueToken.after(range.prefix(), rev, lastKey[0]).encode() : null;
        return new ListResult(items, rev, next, remaining);
    }

    @Override
    public long count(String key) {
        return read(key, c -> SqlLog.count(c, KeyRange.directory(key), null, 0));
    }

    @Override
    public Watch watch(String key, ListOptions opts) {
        KeyRange range = KeyRange.of(key, opts.recursive());
        WatchEventFilter filter = new WatchEventFilter(codec, opts.predicate());
        long from = VERSIONER.parseResourceVersion(opts.resourceVersion());
        QueuedWatch w = sql(key, () -> store.watch(from, range, start -> new QueuedWatch(
                config.groupResource().toString(), range, filter, opts.progressNotify(), watchQueueSize.getAsInt(),
                start, store::unregister, store::bookmarkNow)));
        if (from == 0) {
            sendInitialState(key, w, filter);
        }
        return w;
    }

    /** ADDED for every matching object at the watch's start revision, before any live event. */
    private void sendInitialState(String key, QueuedWatch w, WatchEventFilter filter) {
        long rev = w.startRevision();
        List<WatchEvent> added = new ArrayList<>();
        try {
            boolean retained = store.log().read(c -> {
                if (rev < SqlLog.meta(c, SqlLog.COMPACTED)) {
                    return false;
                }
                SqlLog.scan(c, w.range(), null, rev, (k, modRevision, data) -> {
                    ObjectNode obj = codec.decode(k, data, modRevision);
                    if (filter.matches(obj)) {
                        added.add(WatchEvent.of(WatchEvent.Type.ADDED, obj));
                    }
                    return true;
                });
                return true;
            });
            if (retained) {
                w.addBacklog(added);
            } else {
                w.fail(StorageErrors.tooOldResourceVersion(rev));
            }
        } catch (SQLException e) {
            w.close();
            throw SqlErrors.map(e, store.dialect().name(), key);
        }
    }
}
