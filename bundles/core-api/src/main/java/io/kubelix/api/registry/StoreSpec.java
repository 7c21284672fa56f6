package io.kubelix.api.registry;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.schema.GroupResource;

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
 */
public record StoreSpec(GroupResource groupResource, String kind, String singularName, boolean namespaced,
                        List<String> shortNames, List<String> categories, NameValidation nameValidation,
                        String resourcePrefix, RESTCreateStrategy createStrategy, RESTUpdateStrategy updateStrategy,
                        List<TableColumn> tableColumns, Map<String, Function<ObjectNode, String>> selectableFields) {
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

        public <S extends RESTCreateStrategy & RESTUpdateStrategy> Builder strategy(S strategy) {
            createStrategy = strategy;
            updateStrategy = strategy;
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

        public StoreSpec build() {
            return new StoreSpec(groupResource, kind, singularName, namespaced, shortNames, categories,
                    nameValidation, resourcePrefix, createStrategy, updateStrategy, tableColumns, selectableFields);
        }
    }
}
