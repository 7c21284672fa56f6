package io.kubelix.runtime.fieldmanager;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.api.schema.StructuredMergeDiff;
import org.osgi.service.component.annotations.Component;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The {@link StructuredMergeDiff} service: server-side apply's own merge ({@link Structured#merge})
 * and type check ({@link Structured#toFieldSet}), offered to plugins, which may not import
 * core-runtime, so mutating admission policies merge exactly as apply does.
 */
@Component(service = StructuredMergeDiff.class)
public final class TypedMerge implements StructuredMergeDiff {

    @Override
    public ObjectNode merge(ResourceSchema schema, ObjectNode object, ObjectNode configuration) {
        TypeRef type = type(schema);
        Structured.toFieldSet(configuration, type);
        return (ObjectNode) Structured.merge(object, configuration, type);
    }

    @Override
    public List<String> atomicPaths(ResourceSchema schema, ObjectNode configuration) {
        List<String> atomics = new ArrayList<>();
        atomics(new StringBuilder(), configuration, type(schema), true, atomics);
        return atomics;
    }

    private static TypeRef type(ResourceSchema schema) {
        return schema == null ? TypeRef.deduced() : TypeRef.of(schema.root(), schema::resolve);
    }

    /** kube's findAtomics: the struct fields a schema declares are followed, a map's entries are not. */
    private static void atomics(StringBuilder path, JsonNode value, TypeRef type, boolean root, List<String> out) {
        int length = path.length();
        if (value.isObject() && type.kind(value) != TypeRef.Kind.SCALAR) {
            if (!root && type.atomic(value)) {
                out.add(path.toString());
            }
            if (type.isStruct()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    path.append('.').append(e.getKey());
                    atomics(path, e.getValue(), type.member(e.getKey()), false, out);
                    path.setLength(length);
                }
            }
        } else if (value.isArray() && type.kind(value) == TypeRef.Kind.LIST) {
            if (type.atomic(value)) {
                out.add(path.toString());
            }
            TypeRef items = type.items();
            for (int i = 0; i < value.size(); i++) {
                path.append('[').append(i).append(']');
                atomics(path, value.get(i), items, false, out);
                path.setLength(length);
            }
        }
    }
}
