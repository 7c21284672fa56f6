package io.kubelix.runtime.fieldmanager;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.schema.ResourceSchema;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Field management of one resource at one endpoint (k8s' fieldmanager.FieldManager): records in
 * {@code metadata.managedFields} who owns which field on every create, update and patch, and
 * applies server-side apply configurations. It is kube's chain of managers, in this order:
 * <ol>
 *   <li>the managedFields of the request are used, unless empty or invalid (then the live
 *       object's are kept), or a list of empty entries (then they are cleared); a subresource
 *       request always keeps the live ones;</li>
 *   <li>an object that nobody manages yet, when first applied, is first owned as a whole by the
 *       {@code before-first-apply} updater;</li>
 *   <li>the ownership rules of {@link Updater}; fields the resource's strategy resets at this
 *       endpoint (status through the main resource, the rest through status) are owned by nobody;</li>
 *   <li>system metadata (name, namespace, uid, resourceVersion, generation, creationTimestamp,
 *       managedFields) and apiVersion and kind are owned by nobody;</li>
 *   <li>the manager's entry gets the time of its last change;</li>
 *   <li>beyond {@value #MAX_UPDATE_MANAGERS} {@code Update} entries, the oldest merge into one
 *       {@code ancient-changes} entry per apiVersion;</li>
 *   <li>for {@code kubectl}, conflicts with fields a client-side apply set to the same values
 *       (the {@code last-applied-configuration} annotation) do not stop the apply, and that
 *       annotation follows the applied configuration.</li>
 * </ol>
 */
public final class FieldManager {
    /** The client-side apply annotation. */
    public static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";
    static final String BEFORE_FIRST_APPLY = "before-first-apply";
    /** The manager whose last-applied annotation server-side apply keeps up to date, as kube's does. */
    private static final String KUBECTL = "kubectl";
    private static final String CURRENT_OPERATION = "current-operation";
    /** kube's DefaultMaxUpdateManagers: older Update entries merge into {@code ancient-changes}. */
    static final int MAX_UPDATE_MANAGERS = 10;
    static final String ANCIENT_CHANGES = "ancient-changes";
    private static final FieldSet STRIPPED = stripped();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final TypeRef type;
    private final String apiVersion;
    private final String subresource;
    private final FieldSet ignored;
    private final Updater updater;
    private final Supplier<String> clock;

    /**
     * @param schema      the resource's schema, or null (objects are then deduced)
     * @param apiVersion  the apiVersion of the objects at this endpoint
     * @param subresource the subresource written ({@code status}), or empty
     * @param ignored     the fields the strategy resets at this endpoint (see {@link #resetFields})
     */
    public FieldManager(ResourceSchema schema, String apiVersion, String subresource, FieldSet ignored) {
        this(schema, apiVersion, subresource, ignored,
                () -> Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
    }

    FieldManager(ResourceSchema schema, String apiVersion, String subresource, FieldSet ignored,
                 Supplier<String> clock) {
        this.type = schema == null ? TypeRef.deduced() : TypeRef.of(schema.root(), schema::resolve);
        this.apiVersion = apiVersion;
        this.subresource = subresource == null ? "" : subresource;
        this.ignored = ignored;
        this.updater = new Updater(type, ignored);
        this.clock = clock;
    }

    /**
     * The fields kube's strategies reset at an endpoint (GetResetFields): {@code status} through
     * the main resource when there is a status subresource; through {@code status}, every other
     * top-level field but metadata.
     */
    public static FieldSet resetFields(ResourceSchema schema, String subresource, boolean hasStatusSubresource) {
        FieldSet s = new FieldSet();
        if ("status".equals(subresource)) {
            JsonNode props = schema == null ? null : schema.root().get("properties");
            if (props == null) {
                s.insert(List.of(PathElement.field("spec")));
            } else {
                props.fieldNames().forEachRemaining(f -> {
                    if (!List.of("status", "metadata", "apiVersion", "kind").contains(f)) {
                        s.insert(List.of(PathElement.field(f)));
                    }
                });
            }
        } else if ((subresource == null || subresource.isEmpty()) && hasStatusSubresource) {
            s.insert(List.of(PathElement.field("status")));
        }
        return s;
    }

    /**
     * The manager of a request: its {@code fieldManager} parameter, else the User-Agent's first
     * word (such as {@code kubectl-edit} from {@code kubectl-edit/v1.31.0 (linux/amd64) ...}).
     */
    public static String managerOrUserAgent(String fieldManager, String userAgent) {
        if (fieldManager != null && !fieldManager.isEmpty()) {
            return fieldManager;
        }
        String ua = userAgent == null ? "" : userAgent;
        int slash = ua.indexOf('/');
        String prefix = slash >= 0 ? ua.substring(0, slash) : ua;
        return prefix.length() > 128 ? prefix.substring(0, 128) : prefix;
    }

    /**
     * Records an update (create when {@code live} is null) by {@code manager}: it owns the fields
     * it changed. Never fails: managed fields that cannot be worked out are dropped, as kube's
     * UpdateNoErrors does.
     *
     * @return {@code changed} with its managedFields set
     */
    public ObjectNode update(ObjectNode live, ObjectNode changed, String manager) {
        try {
            ManagedFields managed = liveOrNew(live, changed);
            ObjectNode liveClean = clean(live);
            ObjectNode newClean = clean(changed);
            recordUpdate(managed, liveClean, newClean, new ManagedFields.Manager(manager, ManagedFields.UPDATE,
                    apiVersion, subresource).id());
            capUpdateManagers(managed);
            setManagedFields(changed, managed);
        } catch (RuntimeException e) {
            metadata(changed).remove("managedFields");
        }
        return changed;
    }

    /**
     * Applies {@code config} by {@code manager} to {@code live} (null: the object does not exist).
     *
     * @return the object to store, with its managedFields
     * @throws StatusException 400 for a configuration that cannot be applied, 409 for conflicts
     */
    public ObjectNode apply(ObjectNode live, ObjectNode config, String manager, boolean force) {
        String given = config.path("apiVersion").asText("");
        if (!given.equals(apiVersion)) {
            throw StatusException.badRequest("Incorrect version specified in apply patch. Specified patch version: "
                    + given + ", expected: " + apiVersion);
        }
        JsonNode configMeta = config.path("metadata");
        if (configMeta.has("managedFields") && !configMeta.get("managedFields").isNull()) {
            throw StatusException.badRequest("metadata.managedFields must be nil");
        }
        ObjectNode applied = (ObjectNode) withoutNulls(config);
        FieldSet configSet;
        try {
            configSet = Structured.toFieldSet(applied, type).difference(STRIPPED);
        } catch (IllegalArgumentException e) {
            throw StatusException.badRequest("failed to create typed patch object (" + describe(applied) + "): "
                    + e.getMessage());
        }
        ObjectNode liveClean = live == null ? JSON.createObjectNode() : clean(live);
        ManagedFields managed;
        try {
            managed = live == null ? new ManagedFields() : ManagedFields.decode(metadata(live).get("managedFields"));
        } catch (IllegalArgumentException e) {
            managed = new ManagedFields();
        }
        if (managed.fields.isEmpty() && live != null) {
            recordUpdate(managed, JSON.createObjectNode(), liveClean, new ManagedFields.Manager(BEFORE_FIRST_APPLY,
                    ManagedFields.UPDATE, apiVersion, subresource).id());
        }
        String id = new ManagedFields.Manager(manager, ManagedFields.APPLY, apiVersion, subresource).id();
        ManagedFields attempt = managed.copy();
        JsonNode result;
        try {
            result = updater.apply(liveClean, applied, configSet, apiVersion, attempt, id, force);
        } catch (Conflicts c) {
            Conflicts remaining = manager.equals(KUBECTL) ? c.without(allowedByLastApplied(liveClean)) : c;
            if (!remaining.conflicts().isEmpty()) {
                throw remaining.toStatus();
            }
            attempt = managed.copy();
            result = updater.apply(liveClean, applied, configSet, apiVersion, attempt, id, true);
        }
        ObjectNode out = (ObjectNode) result;
        if (!out.equals(liveClean) || !attempt.times.containsKey(id)) {
            attempt.times.put(id, clock.get());
        }
        if (manager.equals(KUBECTL) && live != null && annotations(liveClean).has(LAST_APPLIED)) {
            ObjectNode lastApplied = applied.deepCopy();
            JsonNode ann = lastApplied.path("metadata").path("annotations");
            if (ann instanceof ObjectNode a) {
                a.remove(LAST_APPLIED);
                if (a.isEmpty()) {
                    ((ObjectNode) lastApplied.get("metadata")).remove("annotations");
                }
            }
            ((ObjectNode) metadata(out).with("annotations")).put(LAST_APPLIED, lastApplied.toString());
        }
        capUpdateManagers(attempt);
        setManagedFields(out, attempt);
        return out;
    }

    /**
     * capManagersManager: while there are more than {@value #MAX_UPDATE_MANAGERS} Update entries,
     * the oldest are merged, per apiVersion, into an {@code ancient-changes} entry, which takes the
     * time of the latest update merged into it.
     */
    static void capUpdateManagers(ManagedFields managed) {
        List<String> updaters = new java.util.ArrayList<>();
        managed.fields.forEach((id, vs) -> {
            if (!vs.applied()) {
                updaters.add(id);
            }
        });
        if (updaters.size() <= MAX_UPDATE_MANAGERS) {
            return;
        }
        updaters.sort(java.util.Comparator.<String, String>comparing(id -> managed.times.getOrDefault(id, ""))
                .thenComparing(id -> id));
        Map<String, String> firstOfVersion = new java.util.HashMap<>();
        int count = updaters.size();
        for (int i = 0; i < updaters.size() && count > MAX_UPDATE_MANAGERS; i++) {
            String id = updaters.get(i);
            ManagedFields.VersionedSet vs = managed.fields.get(id);
            String bucket = new ManagedFields.Manager(ANCIENT_CHANGES, ManagedFields.UPDATE, vs.apiVersion(), "").id();
            String first = firstOfVersion.putIfAbsent(vs.apiVersion(), id);
            if (first == null) {
                continue;
            }
            if (!managed.fields.containsKey(bucket)) {
                managed.fields.put(bucket, managed.fields.remove(first));
                managed.times.remove(first);
            }
            managed.fields.put(bucket, new ManagedFields.VersionedSet(vs.set().union(managed.fields.get(bucket).set()),
                    vs.apiVersion(), false));
            managed.fields.remove(id);
            String time = managed.times.remove(id);
            if (time != null) {
                managed.times.put(bucket, time);
            }
            count--;
        }
    }

    /** An update by the manager {@code id}: fields it changed are taken from others and added to its own. */
    private void recordUpdate(ManagedFields managed, ObjectNode live, ObjectNode changed, String id) {
        Comparison c = updater.update(live, changed, managed, CURRENT_OPERATION, true);
        FieldSet took = c.modified().union(c.added()).difference(c.removed()).recursiveDifference(ignored)
                .difference(STRIPPED);
        if (took.isEmpty()) {
            return;
        }
        ManagedFields.VersionedSet before = managed.fields.get(id);
        managed.fields.put(id, new ManagedFields.VersionedSet(before == null ? took : took.union(before.set()),
                apiVersion, false));
        managed.times.put(id, clock.get());
    }

    /**
     * The fields of the last client-side apply that still hold their values: an apply by kubectl
     * may take them from their owners (the upgrade from client-side to server-side apply).
     */
    private FieldSet allowedByLastApplied(ObjectNode live) {
        JsonNode ann = annotations(live).get(LAST_APPLIED);
        if (ann == null || ann.asText("").isEmpty()) {
            return new FieldSet();
        }
        try {
            JsonNode last = withoutNulls(JSON.readTree(ann.asText()));
            FieldSet set = Structured.toFieldSet(last, type);
            Comparison c = Structured.compare(last, live, type);
            return set.difference(c.modified()).difference(c.removed());
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return new FieldSet();
        }
    }

    /** decodeLiveOrNew: the managers a write starts from. */
    private ManagedFields liveOrNew(ObjectNode live, ObjectNode changed) {
        ManagedFields fromLive;
        try {
            fromLive = live == null ? new ManagedFields() : ManagedFields.decode(metadata(live).get("managedFields"));
        } catch (IllegalArgumentException e) {
            fromLive = new ManagedFields();
        }
        if (!subresource.isEmpty()) {
            return fromLive;
        }
        JsonNode requested = metadata(changed).get("managedFields");
        if (ManagedFields.isReset(requested)) {
            return new ManagedFields();
        }
        try {
            ManagedFields m = ManagedFields.decode(requested);
            return m.fields.isEmpty() ? fromLive : m;
        } catch (IllegalArgumentException e) {
            return fromLive;
        }
    }

    private static void setManagedFields(ObjectNode obj, ManagedFields managed) {
        ObjectNode meta = metadata(obj);
        com.fasterxml.jackson.databind.node.ArrayNode entries = managed.encode();
        if (entries.isEmpty()) {
            meta.remove("managedFields");
        } else {
            meta.set("managedFields", entries);
        }
    }

    /** A copy of an object without its managedFields, as both sides of a comparison are. */
    private static ObjectNode clean(ObjectNode obj) {
        if (obj == null) {
            return JSON.createObjectNode();
        }
        ObjectNode c = obj.deepCopy();
        if (c.get("metadata") instanceof ObjectNode m) {
            m.remove("managedFields");
        }
        return c;
    }

    private static ObjectNode metadata(ObjectNode obj) {
        JsonNode m = obj.get("metadata");
        return m instanceof ObjectNode o ? o : obj.putObject("metadata");
    }

    private static JsonNode annotations(ObjectNode obj) {
        return obj.path("metadata").path("annotations");
    }

    /** A configuration without its null fields: null asks for nothing in an apply. */
    private static JsonNode withoutNulls(JsonNode node) {
        if (node.isObject()) {
            ObjectNode out = JSON.createObjectNode();
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (!e.getValue().isNull()) {
                    out.set(e.getKey(), withoutNulls(e.getValue()));
                }
            }
            return out;
        }
        if (node.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode out = JSON.createArrayNode();
            node.forEach(n -> out.add(withoutNulls(n)));
            return out;
        }
        return node;
    }

    private String describe(ObjectNode obj) {
        JsonNode meta = obj.path("metadata");
        return meta.path("namespace").asText("") + "/" + meta.path("name").asText("") + "; " + apiVersion + ", Kind="
                + obj.path("kind").asText("");
    }

    private static FieldSet stripped() {
        FieldSet s = new FieldSet();
        s.insert(List.of(PathElement.field("apiVersion")));
        s.insert(List.of(PathElement.field("kind")));
        s.insert(List.of(PathElement.field("metadata")));
        for (String f : new String[] {"name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName",
                "generation", "managedFields", "resourceVersion"}) {
            s.insert(List.of(PathElement.field("metadata"), PathElement.field(f)));
        }
        return s;
    }
}
