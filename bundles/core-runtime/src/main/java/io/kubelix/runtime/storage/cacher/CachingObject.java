package io.kubelix.runtime.storage.cacher;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.runtime.codec.Codecs;
import io.kubelix.runtime.codec.protobuf.ProtobufEncoder;

import java.util.function.Supplier;

/**
 * A shared, never changed object of the watch cache with its encodings (kube's cachingObject):
 * each is computed the first time a watcher or list needs it and then kept, so an object is
 * serialized once per encoding, not once per client. As a {@code Supplier} it gives the JSON
 * encoding that {@link io.kubelix.api.storage.WatchEvent#json()} carries; the protobuf message is
 * computed only when a protobuf client asks for it.
 */
public final class CachingObject implements Supplier<byte[]> {
    private final ObjectNode object;
    private volatile byte[] json;
    private volatile byte[] protobuf;

    CachingObject(ObjectNode object) {
        this.object = object;
    }

    /** The shared object, typed as stored: read it, never change it. */
    public ObjectNode object() {
        return object;
    }

    @Override
    public byte[] get() {
        byte[] b = json;
        if (b == null) {
            b = Codecs.toJson(object);
            json = b;
        }
        return b;
    }

    /**
     * The JSON encoding if a watcher already needed it, else null: a list encodes such objects itself
     * and keeps nothing, so listing every object does not keep an encoding of each.
     */
    public byte[] encodedJson() {
        return json;
    }

    /**
     * The object's bare protobuf message for its own apiVersion and kind.
     *
     * @throws IllegalArgumentException when its kind has no protobuf form
     */
    public byte[] protobuf() {
        byte[] b = protobuf;
        if (b == null) {
            b = ProtobufEncoder.message(object);
            protobuf = b;
        }
        return b;
    }
}
