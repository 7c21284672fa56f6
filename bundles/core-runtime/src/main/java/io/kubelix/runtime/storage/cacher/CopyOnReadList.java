package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * The objects of a list served from the cache, each copied the first time it is read, so a
 * caller owns what it reads while a response written from the shared encodings copies nothing.
 * Read by one thread (the request's).
 */
final class CopyOnReadList extends AbstractList<ObjectNode> implements RandomAccess {
    private final List<StoreElement> shared;
    /** Allocated on the first read: a response written from the encodings reads none. */
    private ObjectNode[] copies;

    CopyOnReadList(List<StoreElement> shared) {
        this.shared = shared;
    }

    @Override
    public ObjectNode get(int index) {
        if (copies == null) {
            copies = new ObjectNode[shared.size()];
        }
        ObjectNode c = copies[index];
        if (c == null) {
            c = shared.get(index).object.deepCopy();
            copies[index] = c;
        }
        return c;
    }

    @Override
    public int size() {
        return shared.size();
    }
}
