package io.kubelix.support.storage;

/**
 * One write as the event log keeps it: the serialized object after and before the change, never
 * decoded here, so a write costs no JSON work for watchers; each watcher decodes what it delivers.
 *
 * @param revision the write's revision
 * @param key      the key written
 * @param data     the object stored, or null for a delete
 * @param prevData the object replaced, or null for a create
 */
public record StoredEvent(long revision, String key, byte[] data, byte[] prevData) {

    public boolean isCreate() {
        return prevData == null;
    }

    public boolean isDelete() {
        return data == null;
    }
}
