package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTUpdateStrategy;
import io.kubelix.api.registry.ScaleStorage;
import io.kubelix.api.registry.ScaleSubresource;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StatusStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.runtime.storage.ConvertingStorage;
import io.kubelix.runtime.storage.StorageFactory;
import io.kubelix.runtime.storage.cacher.Cacher;

import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The RESTOptionsGetter handed to resource providers: generic Stores over the StorageFactory's
 * storages, with the server's admission chain.
 */
public final class StoreFactory implements RESTOptionsGetter {
    /** Null when built over a plain function (tests). */
    private final StorageFactory storageFactory;
    private final BiFunction<GroupResource, String, StorageInterface> storages;
    private final AdmissionChain admission;

    public StoreFactory(StorageFactory storageFactory, AdmissionChain admission) {
        this(storageFactory, storageFactory::storageFor, admission);
    }

    /** Stores over {@code storages} (group resource and key prefix to storage), as tests build them. */
    public StoreFactory(BiFunction<GroupResource, String, StorageInterface> storages, AdmissionChain admission) {
        this(null, storages, admission);
    }

    private StoreFactory(StorageFactory storageFactory, BiFunction<GroupResource, String, StorageInterface> storages,
                         AdmissionChain admission) {
        this.storageFactory = storageFactory;
        this.storages = storages;
        this.admission = admission;
    }

    /**
     * A Store for {@code spec}; a watch cache in front of its storage indexes watchers by the spec's indexed field.
     * A spec with a storage conversion shares the storage of the resource under its prefix, which keeps its own
     * watch cache index, and sees it through a {@link ConvertingStorage}.
     */
    @Override
    public StandardStorage newStore(StoreSpec spec) {
        StorageInterface storage = storages.apply(spec.groupResource(), spec.resourcePrefix());
        if (spec.storageConversion() != null) {
            storage = new ConvertingStorage(storage, spec.storageConversion());
        } else if (storage instanceof Cacher cacher) {
            String field = spec.indexedField();
            Function<ObjectNode, String> value = field == null ? null : spec.selectableFields().get(field);
            cacher.indexBy(field, value);
            if (value != null) {
                // The cache outlives the plugin; its index must not keep the plugin's code.
                return new GenericStore(spec, storage, admission, () -> cacher.unindex(value));
            }
        }
        return new GenericStore(spec, storage, admission);
    }

    @Override
    public StatusStorage newStatusStore(StandardStorage store, RESTUpdateStrategy statusStrategy) {
        if (!(store instanceof GenericStore generic)) {
            throw new IllegalArgumentException("a status subresource needs a Store built by newStore, not "
                    + store.getClass().getName());
        }
        return new StatusREST(generic.withUpdateStrategy(statusStrategy));
    }

    @Override
    public ScaleStorage newScaleStore(StandardStorage store, ScaleSubresource scale) {
        if (!(store instanceof GenericStore generic)) {
            throw new IllegalArgumentException("a scale subresource needs a Store built by newStore, not "
                    + store.getClass().getName());
        }
        return new ScaleREST(generic, generic.groupResource(), scale);
    }

    /** The admission chain every Store of this factory runs; the handlers of NamedCreater subresources run it too. */
    public AdmissionChain admission() {
        return admission;
    }

    @Override
    public StorageInterface storage(String resourcePrefix) {
        // Raw storage is never behind the watch cache: its keys need not follow the Store's scheme.
        return storageFactory != null ? storageFactory.rawStorageFor(resourcePrefix)
                : storages.apply(new GroupResource("", resourcePrefix), resourcePrefix);
    }
}
