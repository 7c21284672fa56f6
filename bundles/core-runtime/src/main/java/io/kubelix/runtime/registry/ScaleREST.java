package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.object.LabelSelectors;
import io.kubelix.api.registry.ScaleStorage;
import io.kubelix.api.registry.ScaleSubresource;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.UpdateResult;
import io.kubelix.api.registry.UpdatedObjectInfo;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.runtime.fieldmanager.FieldManager;
import io.kubelix.runtime.fieldmanager.FieldSet;

import java.util.List;

/**
 * A {@code <resource>/scale} subresource (kube's ScaleREST of deployments, replicasets and
 * statefulsets, generalised over the paths of a {@link ScaleSubresource} as the CRD scale
 * subresource is): an {@code autoscaling/v1 Scale} computed from the parent object, and written
 * back into the parent's replicas through the parent's Store, so the parent's strategies,
 * admission, generation and optimistic concurrency apply.
 */
final class ScaleREST implements ScaleStorage {
    static final GroupVersionKind SCALE = new GroupVersionKind("autoscaling", "v1", "Scale");
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final GenericStore store;
    private final ScaleSubresource paths;
    /** How kube names this subresource in a NotFound: {@code deployments/scale.apps}. */
    private final GroupResource scaleResource;
    private final GroupResource parentResource;

    ScaleREST(GenericStore store, GroupResource parentResource, ScaleSubresource paths) {
        this.store = store.withAdmissionView(new ScaleView());
        this.paths = paths;
        this.parentResource = parentResource;
        this.scaleResource = new GroupResource(parentResource.group(), parentResource.resource() + "/scale");
    }

    @Override
    public GroupVersionKind groupVersionKind(GroupVersion containingGV) {
        return SCALE;
    }

    /** A missing parent is answered for the subresource, as kube's ScaleREST.Get does: deployments/scale.apps "web". */
    @Override
    public ObjectNode get(RequestContext ctx, String name, String resourceVersion) {
        try {
            return scaleOf(store.get(ctx, name, resourceVersion));
        } catch (StatusException e) {
            throw parentMissing(e, name);
        }
    }

    /** The parent's NotFound answered for the subresource, as kube answers it; any other error as it is. */
    private StatusException parentMissing(StatusException e, String name) {
        if (e.reason() == StatusReason.NOT_FOUND && e.details() != null
                && parentResource.resource().equals(e.details().kind())) {
            return StatusException.notFound(scaleResource, name);
        }
        return e;
    }

    /**
     * scaleUpdatedObjectInfo: the client's Scale is computed from the current one, validated, and
     * its replicas and resourceVersion are moved into the parent, which the parent's Store then
     * updates. The answer is the Scale of the stored parent.
     */
    @Override
    public UpdateResult update(RequestContext ctx, String name, UpdatedObjectInfo objInfo, UpdateOptions options) {
        UpdateResult result;
        try {
            result = store.update(ctx, name, (c, old) -> {
                if (old == null) {
                    throw StatusException.notFound(scaleResource, name);
                }
                ObjectNode scale = objInfo.updatedObject(c, scaleOf(old));
                if (scale == null) {
                    throw StatusException.badRequest("nil update passed to Scale");
                }
                long replicas = validate(c, name, scale);
                ObjectNode parent = old.deepCopy();
                set(parent, paths.specReplicasPath(), replicas);
                JsonNode rv = scale.path("metadata").get("resourceVersion");
                ObjectNode meta = (ObjectNode) parent.get("metadata");
                if (rv == null || rv.isNull() || rv.asText().isEmpty()) {
                    meta.remove("resourceVersion");
                } else {
                    meta.put("resourceVersion", rv.asText());
                }
                return options.fieldManager() == null ? parent : fieldManager(c).update(old, parent, options.fieldManager());
            }, options);
        } catch (StatusException e) {
            throw parentMissing(e, name);
        }
        return new UpdateResult(scaleOf(result.object()), false);
    }

    /**
     * Admission of a scale request sees Scales, as kube's handler admits the subresource's kind:
     * the Scale of the parent as it would be stored, and of the parent before. A mutating plugin
     * that changes the Scale's {@code spec.replicas} changes the parent's.
     */
    private final class ScaleView implements GenericStore.AdmissionView {
        @Override
        public GroupVersionKind kind() {
            return SCALE;
        }

        @Override
        public ObjectNode of(ObjectNode parent) {
            return scaleOf(parent);
        }

        @Override
        public void applyTo(ObjectNode admitted, ObjectNode parent) {
            set(parent, paths.specReplicasPath(), admitted.path("spec").path("replicas").asLong(0));
        }
    }

    /** The checks of kube's update handler and ValidateScale; returns spec.replicas. */
    private static long validate(RequestContext ctx, String name, ObjectNode scale) {
        JsonNode meta = scale.path("metadata");
        String given = meta.path("name").asText("");
        if (!given.isEmpty() && !given.equals(name)) {
            throw StatusException.badRequest("the name of the object (" + given + ") does not match the name on the URL ("
                    + name + ")");
        }
        String namespace = meta.path("namespace").asText("");
        if (!namespace.isEmpty() && !ctx.namespace().isEmpty() && !namespace.equals(ctx.namespace())) {
            throw StatusException.badRequest("the namespace of the provided object does not match the namespace sent "
                    + "on the request");
        }
        JsonNode spec = scale.get("spec");
        if (spec != null && !spec.isNull() && !spec.isObject()) {
            throw StatusException.badRequest("Scale in version \"v1\" cannot be handled as a Scale: json: cannot "
                    + "unmarshal " + spec.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
                    + " into Go struct field Scale.spec of type v1.ScaleSpec");
        }
        JsonNode replicas = scale.path("spec").path("replicas");
        if (replicas.isMissingNode() || replicas.isNull()) {
            return 0; // autoscaling/v1 ScaleSpec.replicas is omitempty: absent means 0
        }
        if (!replicas.isIntegralNumber() || !replicas.canConvertToInt()) {
            throw StatusException.badRequest("Scale in version \"v1\" cannot be handled as a Scale: json: cannot "
                    + "unmarshal " + replicas.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
                    + " into Go struct field ScaleSpec.spec.replicas of type int32");
        }
        if (replicas.asLong() < 0) {
            throw StatusException.invalid(SCALE.kind(), SCALE.group(), name, List.of(
                    FieldError.invalid("spec.replicas", replicas.asLong(), "must be greater than or equal to 0")));
        }
        return replicas.asLong();
    }

    /** scaleFromDeployment: the parent's identity, desired and observed replicas, and selector. */
    ObjectNode scaleOf(ObjectNode parent) {
        ObjectNode scale = F.objectNode();
        scale.put("kind", SCALE.kind());
        scale.put("apiVersion", SCALE.groupVersion().apiVersion());
        ObjectNode meta = scale.putObject("metadata");
        JsonNode pm = parent.path("metadata");
        for (String f : new String[] {"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
            if (pm.hasNonNull(f)) {
                meta.set(f, pm.get(f).deepCopy());
            }
        }
        long desired = at(parent, paths.specReplicasPath()).asLong(0);
        ObjectNode spec = scale.putObject("spec");
        if (desired != 0) {
            spec.put("replicas", desired);
        }
        ObjectNode status = scale.putObject("status");
        status.put("replicas", at(parent, paths.statusReplicasPath()).asLong(0));
        String selector = selector(parent);
        if (!selector.isEmpty()) {
            status.put("selector", selector);
        }
        return scale;
    }

    private String selector(ObjectNode parent) {
        if (paths.labelSelectorPath() == null) {
            return "";
        }
        JsonNode s = at(parent, paths.labelSelectorPath());
        if (s.isTextual()) {
            return s.asText();
        }
        if (isLabelSet(s)) {
            // A map of labels (a replication controller's spec.selector): labels.SelectorFromSet.
            return LabelSelectors.format(JsonNodeFactory.instance.objectNode().set("matchLabels", s));
        }
        try {
            return LabelSelectors.format(s);
        } catch (IllegalArgumentException e) {
            return ""; // validation keeps malformed selectors out of storage
        }
    }

    /** An object of strings only: a label set, where a metav1.LabelSelector holds an object or a list. */
    private static boolean isLabelSet(JsonNode s) {
        if (!s.isObject() || s.isEmpty()) {
            return false;
        }
        for (JsonNode v : s) {
            if (!v.isTextual()) {
                return false;
            }
        }
        return true;
    }

    /** The parent's field manager for writes through {@code scale}: they own the replicas they change. */
    private FieldManager fieldManager(RequestContext ctx) {
        RequestInfo info = ctx.requestInfo();
        String apiVersion = info == null ? "" : new GroupVersion(info.apiGroup(), info.apiVersion()).apiVersion();
        return new FieldManager(store.schema(), apiVersion, "scale", new FieldSet());
    }

    private static JsonNode at(JsonNode obj, String path) {
        JsonNode n = obj;
        for (String f : path.substring(1).split("\\.")) {
            n = n.path(f);
        }
        return n;
    }

    private static void set(ObjectNode obj, String path, long value) {
        String[] fields = path.substring(1).split("\\.");
        ObjectNode n = obj;
        for (int i = 0; i < fields.length - 1; i++) {
            JsonNode child = n.get(fields[i]);
            n = child instanceof ObjectNode o ? o : n.putObject(fields[i]);
        }
        n.put(fields[fields.length - 1], value);
    }

    @Override
    public List<String> patchTypes() {
        return store.patchTypes();
    }

    @Override
    public String warning() {
        return store.warning();
    }

    @Override
    public String kind() {
        return SCALE.kind();
    }

    @Override
    public boolean namespaced() {
        return store.namespaced();
    }

    @Override
    public String singularName() {
        return "";
    }

    /** kube's printScale: NAME (without the name format), DESIRED, AVAILABLE, AGE, for {@code kubectl get --subresource=scale}. */
    @Override
    public List<TableColumn> tableColumns() {
        TableColumn name = TableColumn.nameColumn();
        return List.of(new TableColumn(name.name(), name.type(), "", name.description(), 0, name.cell()),
                new TableColumn("Desired", "integer", "", "replicas is the desired number of instances for the scaled "
                        + "object.", 0, o -> o.path("spec").path("replicas").asLong(0)),
                new TableColumn("Available", "integer", "", "replicas is the actual number of observed instances of the "
                        + "scaled object.", 0, o -> o.path("status").path("replicas").asLong(0)),
                TableColumn.ageColumn());
    }
}
