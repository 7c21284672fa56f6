package io.kubelix.runtime.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.HumanDuration;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.TableColumn;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * Server-side printing (rest.TableConvertor): objects as a meta.k8s.io Table with the resource's
 * columns, or NAME and AGE when it declares none. {@code includeObject} chooses what each row
 * carries: None, Metadata (a PartialObjectMetadata, the default) or Object.
 */
public final class TableConvertor {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    enum IncludeObject { NONE, METADATA, OBJECT }

    private final List<TableColumn> columns;
    private final String apiVersion;
    private final IncludeObject include;

    public TableConvertor(RESTStorage storage, String tableApiVersion, String includeObject) {
        List<TableColumn> declared = storage.tableColumns();
        this.columns = declared.isEmpty() ? List.of(TableColumn.nameColumn(), TableColumn.ageColumn()) : declared;
        this.apiVersion = tableApiVersion;
        this.include = parseInclude(includeObject);
    }

    /** A Table of {@code items}; {@code listMeta} (resourceVersion, continue) is copied as the Table's metadata. */
    public ObjectNode table(List<ObjectNode> items, ObjectNode listMeta) {
        ObjectNode t = F.objectNode();
        t.put("kind", "Table");
        t.put("apiVersion", apiVersion);
        t.set("metadata", listMeta == null ? F.objectNode() : listMeta);
        ArrayNode defs = t.putArray("columnDefinitions");
        for (TableColumn c : columns) {
            ObjectNode d = defs.addObject();
            d.put("name", c.name());
            d.put("type", c.type());
            d.put("format", c.format());
            d.put("description", c.description());
            d.put("priority", c.priority());
        }
        ArrayNode rows = t.putArray("rows");
        Instant now = Instant.now();
        for (ObjectNode item : items) {
            rows.add(row(item, now));
        }
        return t;
    }

    private ObjectNode row(ObjectNode obj, Instant now) {
        ObjectNode row = F.objectNode();
        ArrayNode cells = row.putArray("cells");
        for (TableColumn c : columns) {
            if (c.isAge()) {
                cells.add(HumanDuration.since(obj.path("metadata").path("creationTimestamp").asText(null), now));
            } else {
                Object v = c.cell().apply(obj);
                cells.add(v instanceof Instant t ? F.textNode(HumanDuration.since(t.toString(), now)) : cell(v));
            }
        }
        switch (include) {
            case OBJECT -> row.set("object", obj);
            case METADATA -> {
                ObjectNode partial = F.objectNode();
                partial.put("kind", "PartialObjectMetadata");
                partial.put("apiVersion", "meta.k8s.io/v1");
                partial.set("metadata", obj.path("metadata").deepCopy());
                row.set("object", partial);
            }
            case NONE -> { }
        }
        return row;
    }

    private static JsonNode cell(Object v) {
        if (v == null) {
            return F.nullNode();
        }
        if (v instanceof JsonNode n) {
            return n;
        }
        if (v instanceof Integer i) {
            return F.numberNode(i);
        }
        if (v instanceof Long l) {
            return F.numberNode(l);
        }
        if (v instanceof Double d) {
            return F.numberNode(BigDecimal.valueOf(d));
        }
        if (v instanceof Boolean b) {
            return F.booleanNode(b);
        }
        return F.textNode(v.toString());
    }

    /** Refuses an {@code includeObject} value a Table cannot be made with (400), before a request acts. */
    public static void checkIncludeObject(String v) {
        parseInclude(v);
    }

    private static IncludeObject parseInclude(String v) {
        if (v == null || v.isEmpty() || v.equals("Metadata")) {
            return IncludeObject.METADATA;
        }
        if (v.equals("None")) {
            return IncludeObject.NONE;
        }
        if (v.equals("Object")) {
            return IncludeObject.OBJECT;
        }
        throw StatusException.badRequest("includeObject: Unsupported value: \"" + v
                + "\": supported values: \"None\", \"Metadata\", \"Object\"");
    }
}
