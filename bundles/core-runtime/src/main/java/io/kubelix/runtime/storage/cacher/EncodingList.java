package io.kubelix.runtime.storage.cacher;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;
import java.util.function.Supplier;

/** The encodings of a page's objects, read from the page itself, so a large list is not copied per request. */
final class EncodingList extends AbstractList<Supplier<byte[]>> implements RandomAccess {
    private final List<StoreElement> items;

    EncodingList(List<StoreElement> items) {
        this.items = items;
    }

    @Override
    public Supplier<byte[]> get(int index) {
        return items.get(index).json;
    }

    @Override
    public int size() {
        return items.size();
    }
}
