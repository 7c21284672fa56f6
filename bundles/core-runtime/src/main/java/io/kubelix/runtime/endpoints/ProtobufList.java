package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.storage.ListResult;
import io.kubelix.runtime.codec.Codecs;
import io.kubelix.runtime.codec.protobuf.ProtobufEncoder;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import io.kubelix.runtime.storage.cacher.CachingObject;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * A list answered in Kubernetes protobuf: the kind's List message. An item from the watch cache
 * that is typed as the endpoint serves it contributes the message the cache keeps for it, encoded
 * at most once for all protobuf clients; other items are typed and encoded here.
 */
final class ProtobufList {
    private ProtobufList() {
    }

    static void write(RequestScope s, Response response, Callback callback, ObjectNode listMeta, ListResult result) {
        String apiVersion = s.groupVersion.apiVersion();
        String kind = s.storage.kind();
        List<ObjectNode> items = result.items();
        List<byte[]> messages = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            Supplier<byte[]> shared = result.json() == null ? null : result.json().get(i);
            if (shared instanceof CachingObject c && apiVersion.equals(c.object().path("apiVersion").asText())
                    && kind.equals(c.object().path("kind").asText())) {
                messages.add(c.protobuf());
            } else {
                ObjectNode item = items.get(i);
                item.put("apiVersion", apiVersion);
                item.put("kind", kind);
                messages.add(ProtobufEncoder.message(item));
            }
        }
        byte[] body = ProtobufEncoder.list(apiVersion, kind + "List", listMeta, messages);
        Responses.writeProtobuf(response, callback, 200, body, () -> Codecs.toJson(tree(apiVersion, kind, listMeta, items)));
    }

    /** The list as JSON, for the audit log. */
    private static ObjectNode tree(String apiVersion, String kind, ObjectNode listMeta, List<ObjectNode> items) {
        ObjectNode list = JsonNodeFactory.instance.objectNode();
        list.put("kind", kind + "List");
        list.put("apiVersion", apiVersion);
        list.set("metadata", listMeta);
        ArrayNode array = list.putArray("items");
        items.forEach(o -> array.add(ResourceHandlers.untyped(o.deepCopy())));
        return list;
    }
}
