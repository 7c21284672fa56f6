package io.kubelix.runtime.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.StorageConversion;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.api.storage.SelectionPredicate;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.UpdateFunction;
import io.kubelix.api.storage.ValidateObjectFunction;
import io.kubelix.api.storage.Versioner;
import io.kubelix.api.storage.Watch;
import io.kubelix.api.storage.WatchEvent;

import java.time.Duration;
import java.util.List;

/**
 * A storage.Interface decorator for a resource served in another shape than the one stored (kube's
 * codec converting between a served version and the storage version): objects written are converted
 * to the stored shape, objects read, listed and watched back to the served one, and list and watch
 * predicates evaluate the served shape, so field selectors name the served fields. Encodings a watch
 * cache shares are of the stored shape, so they are not passed on.
 */
public final class ConvertingStorage implements StorageInterface {
    private final StorageInterface storage;
    private final StorageConversion conversion;

    public ConvertingStorage(StorageInterface storage, StorageConversion conversion) {
        this.storage = storage;
        this.conversion = conversion;
    }

    @Override
    public Versioner versioner() {
        return storage.versioner();
    }

    @Override
    public ObjectNode create(String key, ObjectNode obj) {
        return served(storage.create(key, conversion.toStorage(obj)));
    }

    @Override
    public ObjectNode delete(String key, Preconditions preconditions, ValidateObjectFunction validateDeletion) {
        return served(storage.delete(key, preconditions, current -> validateDeletion.validate(served(current))));
    }

    @Override
    public Watch watch(String key, ListOptions opts) {
        return new ConvertingWatch(storage.watch(key, served(opts)));
    }

    @Override
    public ObjectNode get(String key, GetOptions opts) {
        return served(storage.get(key, opts));
    }

    @Override
    public ListResult getList(String key, ListOptions opts) {
        ListResult stored = storage.getList(key, served(opts));
        List<ObjectNode> items = conversion.fromStorage(stored.items());
        return new ListResult(items, stored.resourceVersion(), stored.continueToken(), stored.remainingItemCount());
    }

    @Override
    public ObjectNode guaranteedUpdate(String key, boolean ignoreNotFound, Preconditions preconditions,
                                       UpdateFunction tryUpdate) {
        UpdateFunction converted = (current, revision) -> {
            ObjectNode updated = tryUpdate.apply(served(current), revision);
            return updated == null ? null : conversion.toStorage(updated);
        };
        return served(storage.guaranteedUpdate(key, ignoreNotFound, preconditions, converted));
    }

    @Override
    public long count(String key) {
        return storage.count(key);
    }

    @Override
    public long currentResourceVersion() {
        return storage.currentResourceVersion();
    }

    private ObjectNode served(ObjectNode stored) {
        return stored == null ? null : conversion.fromStorage(stored);
    }

    /** The options with a predicate that evaluates the served shape of each stored object. */
    private ListOptions served(ListOptions opts) {
        SelectionPredicate p = opts.predicate();
        if (p.matchesEverything()) {
            return opts;
        }
        SelectionPredicate converted = new SelectionPredicate() {
            @Override
            public boolean matches(ObjectNode obj) {
                return p.matches(served(obj));
            }

            @Override
            public boolean matchesEverything() {
                return false;
            }

            @Override
            public String toString() {
                return p.toString();
            }
        };
        return new ListOptions(opts.resourceVersion(), opts.resourceVersionMatch(), converted, opts.recursive(),
                opts.limit(), opts.continueToken(), opts.progressNotify(), opts.sendInitialEvents(), opts.timeout());
    }

    /** The storage's watch with each object event converted to the served shape. */
    private final class ConvertingWatch implements Watch {
        private final Watch watch;

        ConvertingWatch(Watch watch) {
            this.watch = watch;
        }

        private WatchEvent served(WatchEvent ev) {
            if (ev == null || ev.object() == null || ev.type() == WatchEvent.Type.BOOKMARK) {
                return ev;
            }
            return new WatchEvent(ev.type(), ConvertingStorage.this.served(ev.object()), ev.error());
        }

        @Override
        public WatchEvent next(Duration timeout) throws InterruptedException {
            return served(watch.next(timeout));
        }

        @Override
        public WatchEvent poll() {
            return served(watch.poll());
        }

        @Override
        public boolean done() {
            return watch.done();
        }

        @Override
        public boolean onReady(Runnable listener) {
            return watch.onReady(listener);
        }

        @Override
        public void requestProgress() {
            watch.requestProgress();
        }

        @Override
        public boolean terminatedForBeingSlow() {
            return watch.terminatedForBeingSlow();
        }

        @Override
        public boolean onEnd(Runnable listener) {
            return watch.onEnd(listener);
        }

        @Override
        public void close() {
            watch.close();
        }
    }
}
