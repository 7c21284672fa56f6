package io.kubelix.apiextensions.customresource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.apiextensions.Crds;
import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.NameValidation;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import io.kubelix.api.registry.ScaleSubresource;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.ResourceSchema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * The custom resources of one API group, as the RESTStorageProvider the core API installs (what
 * kube's crdHandler builds per CRD as its crdInfo): for every CRD of the group whose names are
 * accepted, each served version gets a generic Store over the objects under
 * {@code /<group>/<plural>} (kube's key layout), stored in the storage version and converted with
 * {@code None} conversion or the CRD's conversion webhook, with the version's schema, printer columns, selectable fields and
 * {@code status} and {@code scale} subresources. Installing it into the core API's route table gives
 * the custom resources discovery, OpenAPI, the garbage collector and namespace deletion.
 */
final class CustomResourceGroupProvider implements RESTStorageProvider {
    private static final Logger LOG = LoggerFactory.getLogger(CustomResourceGroupProvider.class);

    private final String group;
    /** The CRDs served, by name, as read when this provider was made. */
    private final Map<String, ObjectNode> crds;
    /** Whether a CRD (by name) is being deleted now, read at each create. */
    private final java.util.function.Predicate<String> terminating;
    /** Makes the client of a CRD's {@code spec.conversion.webhook}. */
    private final java.util.function.Function<JsonNode, ConversionWebhook> webhooks;
    /** The Store of each CRD's storage version, by CRD name, from the last {@link #newRESTStorage}. */
    private final Map<String, StandardStorage> storageStores = new ConcurrentHashMap<>();

    CustomResourceGroupProvider(String group, Map<String, ObjectNode> crds, java.util.function.Predicate<String> terminating,
                                java.util.function.Function<JsonNode, ConversionWebhook> webhooks) {
        this.group = group;
        this.crds = Map.copyOf(crds);
        this.terminating = terminating;
        this.webhooks = webhooks;
    }

    @Override
    public String groupName() {
        return group;
    }

    /** The CRDs this provider serves, by name. */
    Map<String, ObjectNode> crds() {
        return crds;
    }

    /** The Store of the storage version of the CRD {@code name}, or null when not (yet) built. */
    StandardStorage storageStore(String name) {
        return storageStores.get(name);
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, Map<String, RESTStorage>> byVersion = new LinkedHashMap<>();
        Set<String> versions = new TreeSet<>(Crds::compareVersions);
        for (ObjectNode crd : crds.values()) {
            String storageVersion = Crds.storageVersion(crd);
            JsonNode conversion = crd.path("spec").path("conversion");
            // one client per CRD: every served version's objects go through the same webhook
            ConversionWebhook webhook = "Webhook".equals(conversion.path("strategy").asText())
                    ? webhooks.apply(conversion.path("webhook")) : null;
            for (String version : Crds.servedVersions(crd)) {
                try {
                    Map<String, RESTStorage> resources = byVersion.computeIfAbsent(version, v -> new LinkedHashMap<>());
                    add(getter, crd, version, storageVersion, webhook, resources);
                    versions.add(version);
                } catch (RuntimeException e) {
                    LOG.error("custom resource {} at {}/{} not served: {}", Crds.name(crd), group, version, e.toString(), e);
                }
            }
        }
        List<String> prioritized = new ArrayList<>(versions);
        LOG.info("built {} storage: {}", group, byVersion);
        return new APIGroupInfo(group, prioritized, byVersion);
    }

    private void add(RESTOptionsGetter getter, ObjectNode crd, String version, String storageVersion,
                     ConversionWebhook webhook, Map<String, RESTStorage> resources) {
        JsonNode names = crd.path("status").path("acceptedNames");
        String plural = names.path("plural").asText();
        GroupResource gr = GroupResource.of(group, plural);
        JsonNode v = Crds.version(crd, version);
        ObjectNode openAPI = v.path("schema").path("openAPIV3Schema").isObject()
                ? (ObjectNode) v.path("schema").path("openAPIV3Schema")
                : JsonNodeFactory.instance.objectNode().put("type", "object").put("x-kubernetes-preserve-unknown-fields", true);
        boolean status = CustomResourceStrategy.hasStatus(v);
        String crdName = Crds.name(crd);
        BooleanSupplier deleting = () -> terminating.test(crdName);
        CustomResourceStrategy strategy = new CustomResourceStrategy(gr, openAPI, status, deleting);
        String kind = names.path("kind").asText();
        StoreSpec.Builder spec = StoreSpec.builder(gr, kind)
                .namespaced(Crds.namespaced(crd))
                .singularName(names.path("singular").asText(kind.toLowerCase(java.util.Locale.ROOT)))
                .shortNames(strings(names.path("shortNames")))
                .categories(strings(names.path("categories")))
                .nameValidation(NameValidation.DNS1123_SUBDOMAIN)
                .strategy(strategy)
                .generation(true)
                .schema(ServedSchemas.of(group, version, kind, openAPI))
                .tableColumns(PrinterColumns.of(v).toArray(TableColumn[]::new))
                // kube's crdHandler takes no strategic merge patch: a custom resource has no patch strategies
                .patchTypes("application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml")
                .warning(deprecationWarning(crd, v))
                .storedAs("/" + group + "/" + plural, webhook == null
                        ? new NoneConversion(group, version, storageVersion, openAPI)
                        : new WebhookConversion(group, version, storageVersion, openAPI, webhook));
        for (JsonNode f : v.path("selectableFields")) {
            String path = f.path("jsonPath").asText();
            List<Object> steps = JsonPaths.parse(path);
            if (steps != null) {
                spec.selectableField(path.substring(1), o -> {
                    JsonNode value = JsonPaths.at(o, steps);
                    return value.isValueNode() ? value.asText() : "";
                });
            }
        }
        StandardStorage store = getter.newStore(spec.build());
        resources.put(plural, store);
        if (version.equals(storageVersion)) {
            storageStores.put(crdName, store);
        }
        if (status) {
            resources.put(plural + "/status", getter.newStatusStore(store, strategy.statusStrategy()));
        }
        JsonNode scale = v.path("subresources").path("scale");
        if (scale.isObject()) {
            try {
                String selector = scale.path("labelSelectorPath").asText("");
                resources.put(plural + "/scale", getter.newScaleStore(store, new ScaleSubresource(
                        scale.path("specReplicasPath").asText(), scale.path("statusReplicasPath").asText(),
                        selector.isEmpty() ? null : selector)));
            } catch (IllegalArgumentException e) {
                LOG.warn("custom resource {}/{} {}: scale subresource not served: {}", group, version, plural, e.getMessage());
            }
        }
    }

    /**
     * The warning of a deprecated version: its {@code deprecationWarning}, or kube's default
     * ({@code <group>/<version> <Kind> is deprecated; use <group>/<version> <Kind>}, naming the most
     * preferred served version that is not deprecated and is preferred over this one); null when the
     * version is not deprecated.
     */
    static String deprecationWarning(JsonNode crd, JsonNode version) {
        if (!version.path("deprecated").asBoolean(false)) {
            return null;
        }
        if (version.hasNonNull("deprecationWarning")) {
            return version.get("deprecationWarning").asText();
        }
        String group = crd.path("spec").path("group").asText();
        String kind = crd.path("spec").path("names").path("kind").asText();
        String name = version.path("name").asText();
        String newer = null;
        for (JsonNode v : crd.path("spec").path("versions")) {
            String candidate = v.path("name").asText();
            if (v.path("served").asBoolean(false) && !v.path("deprecated").asBoolean(false)
                    && Crds.compareVersions(candidate, name) < 0
                    && (newer == null || Crds.compareVersions(candidate, newer) < 0)) {
                newer = candidate;
            }
        }
        String warning = group + "/" + name + " " + kind + " is deprecated";
        return newer == null ? warning : warning + "; use " + group + "/" + newer + " " + kind;
    }

    private static String[] strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out.toArray(String[]::new);
    }

    @Override
    public String toString() {
        return "custom resources of " + group + " " + crds.keySet();
    }
}
