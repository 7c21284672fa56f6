package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.ResourceSchema;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What the generic Store needs to know about a resource.
 *
 * @param groupResource  the resource
 * @param kind           the kind of its objects
 * @param singularName   lower-case singular name
 * @param namespaced     whether objects live in namespaces
 * @param shortNames     names kubectl accepts besides the resource name
 * @param categories     categories such as {@code all}
 * @param nameValidation which names are valid
 * @param resourcePrefix the storage key prefix, such as {@code /configmaps}
 * @param createStrategy defaults and validation on create
 * @param updateStrategy defaults and validation on update
 * @param tableColumns   server-side Table columns; empty for NAME and AGE
 * @param selectableFields fields a fieldSelector may name besides metadata.name and metadata.namespace
 * @param deleteStrategy what a delete does beyond finalizers: garbage collection policy, graceful deletion
 * @param generation     whether objects carry {@code metadata.generation}: 1 on create, bumped by one on every
 *                       update that changes the object outside {@code metadata} and {@code status} (its spec), as
 *                       kube's strategies of resources with a spec do; false (configmaps, secrets, namespaces,
 *                       events) leaves it to the client, as kube does
 * @param indexedField   one of the selectable fields, or null: the watch cache indexes watchers by the
 *                       value their field selector requires for it ({@code spec.nodeName=node-1}), so an
 *                       event reaches only the watchers of its object's old and new value and those without
 *                       such a selector (kube's indexed trigger, as pods declare for {@code spec.nodeName})
 * @param schema         the OpenAPI schema of the objects (see {@link RESTStorage#schema()}); null for none
 * @param storageConversion how the objects are stored when another resource's shape is kept under
 *                       {@code resourcePrefix} (see {@link StorageConversion}); null when stored as served
 * @param patchTypes     the patch types the resource takes (see {@link RESTStorage#patchTypes()}); null for all
 * @param warning        a warning for every request to the resource (see {@link RESTStorage#warning()}); null for none
 */
public record StoreSpec(GroupResource groupResource, String kind, String singularName, boolean namespaced,
                        List<String> shortNames, List<String> categories, NameValidation nameValidation,
                        String resourcePrefix, RESTCreateStrategy createStrategy, RESTUpdateStrategy updateStrategy,
                        List<TableColumn> tableColumns, Map<String, Function<ObjectNode, String>> selectableFields,
                        RESTDeleteStrategy deleteStrategy, boolean generation, String indexedField,
                        ResourceSchema schema, StorageConversion storageConversion, List<String> patchTypes,
                        String warning) {
    /** kube-apiserver's default delete strategy: background garbage collection, no graceful deletion. */
    private static final RESTDeleteStrategy DEFAULT_DELETE_STRATEGY = new RESTDeleteStrategy() {
    };

    public StoreSpec {
        Objects.requireNonNull(groupResource, "groupResource");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(createStrategy, "createStrategy");
        Objects.requireNonNull(updateStrategy, "updateStrategy");
        singularName = singularName == null ? kind.toLowerCase(java.util.Locale.ROOT) : singularName;
        shortNames = List.copyOf(shortNames);
        categories = List.copyOf(categories);
        nameValidation = nameValidation == null ? NameValidation.DNS1123_SUBDOMAIN : nameValidation;
        resourcePrefix = resourcePrefix == null ? "/" + groupResource.resource() : resourcePrefix;
        tableColumns = List.copyOf(tableColumns);
        selectableFields = selectableFields == null ? Map.of() : Map.copyOf(selectableFields);
        deleteStrategy = deleteStrategy == null ? DEFAULT_DELETE_STRATEGY : deleteStrategy;
        if (indexedField != null && !selectableFields.containsKey(indexedField)) {
            throw new IllegalArgumentException("indexed field " + indexedField + " is not a selectable field of "
                    + groupResource);
        }
        patchTypes = patchTypes == null ? null : List.copyOf(patchTypes);
    }

    /** A spec that takes every patch type and has no warning (the form before those existed). */
    public StoreSpec(GroupResource groupResource, String kind, String singularName, boolean namespaced,
                     List<String> shortNames, List<String> categories, NameValidation nameValidation,
                     String resourcePrefix, RESTCreateStrategy createStrategy, RESTUpdateStrategy updateStrategy,
                     List<TableColumn> tableColumns, Map<String, Function<ObjectNode, String>> selectableFields,
                     RESTDeleteStrategy deleteStrategy, boolean generation, String indexedField,
                     ResourceSchema schema, StorageConversion storageConversion) {
        this(groupResource, kind, singularName, namespaced, shortNames, categories, nameValidation, resourcePrefix,
                createStrategy, updateStrategy, tableColumns, selectableFields, deleteStrategy, generation, indexedField,
                schema, storageConversion, null, null);
    }

    /** A spec stored as served (the form before storage conversions existed). */
    public StoreSpec(GroupResource groupResource, String kind, String singularName, boolean namespaced,
                     List<String> shortNames, List<String> categories, NameValidation nameValidation,
                     String resourcePrefix, RESTCreateStrategy createStrategy, RESTUpdateStrategy updateStrategy,
                     List<TableColumn> tableColumns, Map<String, Function<ObjectNode, String>> selectableFields,
                     RESTDeleteStrategy deleteStrategy, boolean generation, String indexedField,
                     ResourceSchema schema) {
        this(groupResource, kind, singularName, namespaced, shortNames, categories, nameValidation, resourcePrefix,
                createStrategy, updateStrategy, tableColumns, selectableFields, deleteStrategy, generation, indexedField,
                schema, null);
    }

    /** A spec without a schema (the form before schemas existed). */
    public StoreSpec(GroupResource groupResource, String kind, String singularName, boolean namespaced,
                     List<String> shortNames, List<String> categories, NameValidation nameValidation,
                     String resourcePrefix, RESTCreateStrategy createStrategy, RESTUpdateStrategy updateStrategy,
                     List<TableColumn> tableColumns, Map<String, Function<ObjectNode, String>> selectableFields,
                     RESTDeleteStrategy deleteStrategy, boolean generation, String indexedField) {
        this(groupResource, kind, singularName, namespaced, shortNames, categories, nameValidation, resourcePrefix,
                createStrategy, updateStrategy, tableColumns, selectableFields, deleteStrategy, generation, indexedField,
                null);
    }

    /** A spec without an indexed field (the form before it existed). */
    public StoreSpec(GroupResource groupResource, String kind, String singularName, boolean namespaced,
                     List<String> shortNames, List<String> categories, NameValidation nameValidation,
                     String resourcePrefix, RESTCreateStrategy createStrategy, RESTUpdateStrategy updateStrategy,
                     List<TableColumn> tableColumns, Map<String, Function<ObjectNode, String>> selectableFields,
                     RESTDeleteStrategy deleteStrategy, boolean generation) {
        this(groupResource, kind, singularName, namespaced, shortNames, categories, nameValidation, resourcePrefix,
                createStrategy, updateStrategy, tableColumns, selectableFields, deleteStrategy, generation, null, null);
    }

    /** A spec with the default delete strategy and no generation (the form before those fields existed). */
    public StoreSpec(GroupResource groupResource, String kind, String singularName, boolean namespaced,
                     List<String> shortNames, List<String> categories, NameValidation nameValidation,
                     String resourcePrefix, RESTCreateStrategy createStrategy, RESTUpdateStrategy updateStrategy,
                     List<TableColumn> tableColumns, Map<String, Function<ObjectNode, String>> selectableFields) {
        this(groupResource, kind, singularName, namespaced, shortNames, categories, nameValidation, resourcePrefix,
                createStrategy, updateStrategy, tableColumns, selectableFields, null, false, null, null);
    }

    /** This spec with another update strategy (a status subresource's). */
    public StoreSpec withUpdateStrategy(RESTUpdateStrategy strategy) {
        return new StoreSpec(groupResource, kind, singularName, namespaced, shortNames, categories, nameValidation,
                resourcePrefix, createStrategy, strategy, tableColumns, selectableFields, deleteStrategy, generation,
                indexedField, schema, storageConversion, patchTypes, warning);
    }

    public static Builder builder(GroupResource groupResource, String kind) {
        return new Builder(groupResource, kind);
    }

    /** Builds a StoreSpec; a strategy object usually implements both strategy interfaces. */
    public static final class Builder {
        private final GroupResource groupResource;
        private final String kind;
        private String singularName;
        private boolean namespaced = true;
        private List<String> shortNames = List.of();
        private List<String> categories = List.of();
        private NameValidation nameValidation = NameValidation.DNS1123_SUBDOMAIN;
        private String resourcePrefix;
        private RESTCreateStrategy createStrategy;
        private RESTUpdateStrategy updateStrategy;
        private List<TableColumn> tableColumns = List.of();
        private final Map<String, Function<ObjectNode, String>> selectableFields = new LinkedHashMap<>();
        private RESTDeleteStrategy deleteStrategy;
        private boolean generation;
        private String indexedField;
        private ResourceSchema schema;
        private StorageConversion storageConversion;
        private List<String> patchTypes;
        private String warning;

        private Builder(GroupResource groupResource, String kind) {
            this.groupResource = groupResource;
            this.kind = kind;
        }

        public Builder singularName(String v) {
            singularName = v;
            return this;
        }

        public Builder namespaced(boolean v) {
            namespaced = v;
            return this;
        }

        public Builder shortNames(String... v) {
            shortNames = List.of(v);
            return this;
        }

        public Builder categories(String... v) {
            categories = List.of(v);
            return this;
        }

        public Builder nameValidation(NameValidation v) {
            nameValidation = v;
            return this;
        }

        public Builder resourcePrefix(String v) {
            resourcePrefix = v;
            return this;
        }

        /** The create and update strategy, and the delete strategy too when {@code strategy} is one. */
        public <S extends RESTCreateStrategy & RESTUpdateStrategy> Builder strategy(S strategy) {
            createStrategy = strategy;
            updateStrategy = strategy;
            if (strategy instanceof RESTDeleteStrategy d) {
                deleteStrategy = d;
            }
            return this;
        }

        public Builder deleteStrategy(RESTDeleteStrategy v) {
            deleteStrategy = v;
            return this;
        }

        /** Objects carry metadata.generation, bumped on spec changes (see {@link StoreSpec#generation()}). */
        public Builder generation(boolean v) {
            generation = v;
            return this;
        }

        public Builder createStrategy(RESTCreateStrategy v) {
            createStrategy = v;
            return this;
        }

        public Builder updateStrategy(RESTUpdateStrategy v) {
            updateStrategy = v;
            return this;
        }

        public Builder tableColumns(TableColumn... v) {
            tableColumns = List.of(v);
            return this;
        }

        /** A field a fieldSelector may name, such as {@code involvedObject.name}. */
        public Builder selectableField(String field, Function<ObjectNode, String> value) {
            selectableFields.put(field, value);
            return this;
        }

        /**
         * A selectable field the watch cache indexes watchers by, such as pods' {@code spec.nodeName}
         * (see {@link StoreSpec#indexedField()}); declare it with {@link #selectableField} too.
         */
        /** The OpenAPI schema of the objects (see {@link RESTStorage#schema()}). */
        public Builder schema(ResourceSchema v) {
            schema = v;
            return this;
        }

        public Builder indexedField(String field) {
            indexedField = field;
            return this;
        }

        /**
         * Objects stored under another resource's {@code resourcePrefix} in that resource's shape,
         * converted by {@code conversion} on every write and read (see {@link StorageConversion}).
         */
        public Builder storedAs(String resourcePrefix, StorageConversion conversion) {
            this.resourcePrefix = resourcePrefix;
            this.storageConversion = conversion;
            return this;
        }

        /** Only these patch types are taken (see {@link RESTStorage#patchTypes()}). */
        public Builder patchTypes(String... v) {
            patchTypes = List.of(v);
            return this;
        }

        /** A warning for every request (see {@link RESTStorage#warning()}). */
        public Builder warning(String v) {
            warning = v;
            return this;
        }

        public StoreSpec build() {
            return new StoreSpec(groupResource, kind, singularName, namespaced, shortNames, categories,
                    nameValidation, resourcePrefix, createStrategy, updateStrategy, tableColumns, selectableFields,
                    deleteStrategy, generation, indexedField, schema, storageConversion, patchTypes, warning);
        }
    }
}
