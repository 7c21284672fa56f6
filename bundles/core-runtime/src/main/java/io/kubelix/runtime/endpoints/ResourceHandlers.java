package io.kubelix.runtime.endpoints;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.registry.CollectionDeleter;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.Creater;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.DeleteResult;
import io.kubelix.api.registry.Getter;
import io.kubelix.api.registry.GracefulDeleter;
import io.kubelix.api.registry.Lister;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.UpdateResult;
import io.kubelix.api.registry.UpdatedObjectInfo;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.Preconditions;
import io.kubelix.runtime.audit.AuditContext;
import io.kubelix.runtime.codec.Codecs;
import io.kubelix.runtime.codec.MediaType;
import io.kubelix.runtime.endpoints.responsewriters.StreamingList;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import io.kubelix.runtime.endpoints.responsewriters.StatusObjects;
import io.kubelix.runtime.fieldmanager.FieldManager;
import io.kubelix.runtime.patch.Patches;
import io.kubelix.runtime.table.TableConvertor;
import io.kubelix.runtime.validation.FieldValidation;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The handlers of resource verbs (k8s' endpoints/handlers): get, list, create, update, patch,
 * delete, deletecollection. Each decodes the request, calls the storage, and writes the object
 * (or Table) with kube-apiserver's status codes; watch has its own handler.
 */
final class ResourceHandlers {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private ResourceHandlers() {
    }

    static void get(RequestScope s, Response response, Callback callback) {
        Getter getter = require(s, Getter.class, "get");
        ObjectNode obj = getter.get(s.ctx, s.info.name(), s.param("resourceVersion"));
        writeObject(s, response, callback, 200, obj);
    }

    static void list(RequestScope s, Response response, Callback callback) {
        Lister lister = require(s, Lister.class, "list");
        ListResult result = lister.list(s.ctx, s.listOptions(false));
        ObjectNode listMeta = F.objectNode();
        listMeta.put("resourceVersion", Long.toString(result.resourceVersion()));
        if (result.continueToken() != null) {
            listMeta.put("continue", result.continueToken());
        }
        if (result.remainingItemCount() != null) {
            listMeta.put("remainingItemCount", result.remainingItemCount());
        }
        Negotiation.Choice choice = Negotiation.choose(s);
        if (choice.output() == Negotiation.Output.PARTIAL_OBJECT_METADATA) {
            throw notAcceptable("you requested PartialObjectMetadata, but the requested object is a list");
        }
        if (choice.output() == Negotiation.Output.PARTIAL_OBJECT_METADATA_LIST) {
            ObjectNode list = F.objectNode();
            list.put("kind", "PartialObjectMetadataList");
            list.put("apiVersion", choice.tableApiVersion());
            list.set("metadata", listMeta);
            ArrayNode items = list.putArray("items");
            result.items().forEach(o -> items.add(partial(choice, o)));
            Responses.addWarnings(response, s.ctx.warnings());
            if (choice.protobuf()) {
                Responses.writeProtobuf(response, callback, 200, list);
            } else {
                Responses.writeJson(response, callback, 200, contentType(choice, "PartialObjectMetadataList"), list);
            }
            return;
        }
        if (choice.output() == Negotiation.Output.TABLE) {
            List<ObjectNode> items = result.items().stream().map(o -> typed(s, o)).toList();
            ObjectNode table = new TableConvertor(s.storage, choice.tableApiVersion(), s.param("includeObject"))
                    .table(items, listMeta);
            Responses.addWarnings(response, s.ctx.warnings());
            Responses.writeJson(response, callback, 200, "application/json;as=Table;v=" + version(choice)
                    + ";g=meta.k8s.io", table);
            return;
        }
        Responses.addWarnings(response, s.ctx.warnings());
        if (choice.output() == Negotiation.Output.PROTOBUF) {
            ProtobufList.write(s, response, callback, listMeta, result);
            return;
        }
        if (choice.output() == Negotiation.Output.JSON) {
            Responses.write(response, callback, 200, MediaType.JSON, StreamingList.of(s.storage.kind(),
                    s.groupVersion.apiVersion(), listMeta, result));
            return;
        }
        ObjectNode list = F.objectNode();
        list.put("kind", s.storage.kind() + "List");
        list.put("apiVersion", s.groupVersion.apiVersion());
        list.set("metadata", listMeta);
        ArrayNode items = list.putArray("items");
        result.items().forEach(o -> items.add(untyped(o)));
        Responses.writeObject(s.request, response, callback, 200, list);
    }

    static void create(RequestScope s, Response response, Callback callback) throws IOException {
        Creater creater = require(s, Creater.class, "create");
        if (!s.info.name().isEmpty()) {
            throw StatusException.methodNotSupported(s.groupResource(), "create");
        }
        ObjectNode body = s.bodyObject(s.decodeValidatedBody());
        AuditContext.logRequestObject(s.request, body);
        String manager = writer(s);
        FieldManager fields = s.fieldManager();
        if (fields != null) {
            body = fields.update(null, body, manager);
        }
        ObjectNode created = creater.create(s.ctx, body, new CreateOptions(s.dryRun(), manager, s.fieldValidationParam()));
        writeObject(s, response, callback, 201, created);
    }

    static void update(RequestScope s, Response response, Callback callback) throws IOException {
        Updater updater = require(s, Updater.class, "update");
        ObjectNode body = s.bodyObject(s.decodeValidatedBody());
        AuditContext.logRequestObject(s.request, body);
        String manager = writer(s);
        FieldManager fields = s.fieldManager();
        String uid = body.path("metadata").path("uid").asText("");
        // As kube's DefaultUpdatedObjectInfo: a body's uid is a precondition on the object it replaces (409).
        Preconditions preconditions = uid.isEmpty() ? Preconditions.NONE : new Preconditions(uid, null);
        UpdateResult result = updater.update(s.ctx, s.info.name(), new UpdatedObjectInfo() {
            @Override
            public ObjectNode updatedObject(RequestContext ctx, ObjectNode old) {
                return fields == null ? body.deepCopy() : fields.update(old, body.deepCopy(), manager);
            }

            @Override
            public Preconditions preconditions() {
                return preconditions;
            }
        }, new UpdateOptions(s.dryRun(), manager, s.fieldValidationParam()));
        writeObject(s, response, callback, result.created() ? 201 : 200, result.object());
    }

    static void patch(RequestScope s, Response response, Callback callback) throws IOException {
        require(s, Getter.class, "patch");
        Updater updater = require(s, Updater.class, "patch");
        String patchType = s.contentType();
        List<String> accepted = s.storage.patchTypes();
        if (accepted != null && !accepted.contains(patchType)) {
            throw new StatusException(StatusReason.UNSUPPORTED_MEDIA_TYPE, 415, "the body of the request was in an "
                    + "unknown format - accepted media types include: " + String.join(", ", accepted), null, null);
        }
        if (patchType.equals(Patches.APPLY_PATCH)) {
            apply(s, response, callback);
            return;
        }
        if (!patchType.equals(Patches.JSON_PATCH) && !patchType.equals(Patches.MERGE_PATCH)
                && !patchType.equals(Patches.STRATEGIC_MERGE_PATCH)) {
            throw Patches.unsupported(patchType);
        }
        if (s.boolParam("force") != null) {
            throw patchOptionsInvalid(FieldError.forbidden("force", "may not be specified for non-apply patch"));
        }
        String manager = writer(s);
        FieldManager fields = s.fieldManager();
        FieldValidation.Patch patch = s.decodeValidatedPatch(patchType.equals(Patches.JSON_PATCH));
        AuditContext.logRequestPatch(s.request, patch.body());
        // Strategic merge follows the kind's schema: lists merge on their x-kubernetes-patch-merge-key.
        ResourceSchema schema = s.storage.schema();
        // The update function may run again on a conflict: the last run's warnings are the ones to send.
        AtomicReference<List<String>> warnings = new AtomicReference<>(List.of());
        UpdateResult result = updater.update(s.ctx, s.info.name(), (ctx, old) -> {
            if (old == null) {
                throw StatusException.notFound(s.groupResource(), s.info.name());
            }
            ObjectNode patched = Patches.apply(patchType, patch.body(), old, schema == null ? null : schema.root(),
                    schema == null ? null : schema::resolve);
            warnings.set(patch.checkPatched(patched));
            // The object's identity comes from the URL and the endpoint, whatever the patch says.
            String apiVersion = s.kind().groupVersion().apiVersion();
            if (!apiVersion.equals(patched.path("apiVersion").asText(apiVersion))
                    || !s.kind().kind().equals(patched.path("kind").asText(s.kind().kind()))) {
                throw StatusException.badRequest("a patch may not change an object's apiVersion or kind");
            }
            return fields == null ? typed(s, patched) : fields.update(old, typed(s, patched), manager);
        }, new UpdateOptions(s.dryRun(), manager, s.fieldValidationParam()));
        warnings.get().forEach(s.ctx::addWarning);
        writeObject(s, response, callback, 200, result.object());
    }

    /**
     * Server-side apply ({@code application/apply-patch+yaml}): the configuration, YAML or JSON,
     * is merged into the live object by the field manager, or creates the object when there is
     * none; conflicts with other managers are a 409 unless {@code force=true}.
     */
    private static void apply(RequestScope s, Response response, Callback callback) throws IOException {
        Updater updater = require(s, Updater.class, "patch");
        String manager = fieldManager(s);
        if (manager == null) {
            throw patchOptionsInvalid(FieldError.required("fieldManager", "is required for apply patch"));
        }
        boolean force = Boolean.TRUE.equals(s.boolParam("force"));
        FieldManager fields = s.fieldManager();
        if (fields == null) {
            throw Patches.unsupported(Patches.APPLY_PATCH);
        }
        FieldValidation.Patch patch = s.decodeValidatedApply();
        AuditContext.logRequestPatch(s.request, patch.body());
        if (!(patch.body() instanceof ObjectNode config)) {
            throw StatusException.badRequest("error decoding YAML: the apply configuration must be an object");
        }
        if (!s.kind().kind().equals(config.path("kind").asText(""))) {
            throw StatusException.badRequest("the kind of the apply configuration (\"" + config.path("kind").asText("")
                    + "\") does not match the kind of the resource (\"" + s.kind().kind() + "\")");
        }
        String name = s.info.name();
        String given = config.path("metadata").path("name").asText("");
        if (!given.isEmpty() && !given.equals(name)) {
            throw StatusException.badRequest("the name of the object (" + given + ") does not match the name on the URL ("
                    + name + ")");
        }
        AtomicReference<List<String>> warnings = new AtomicReference<>(List.of());
        if (s.storage instanceof Creater creater && s.info.subresource().isEmpty() && !exists(s, name)) {
            // Apply creates: the configuration applied to nothing.
            ObjectNode obj = fields.apply(null, config, manager, force);
            warnings.set(patch.checkPatched(obj));
            ((ObjectNode) obj.get("metadata")).put("name", name);
            try {
                ObjectNode created = creater.create(s.ctx, typed(s, obj), new CreateOptions(s.dryRun(), manager,
                        s.fieldValidationParam()));
                warnings.get().forEach(s.ctx::addWarning);
                writeObject(s, response, callback, 201, created);
                return;
            } catch (StatusException e) {
                if (e.code() != 409 || e.reason() != io.kubelix.api.errors.StatusReason.ALREADY_EXISTS) {
                    throw e;
                }
                // Created meanwhile by someone else: apply to that.
            }
        }
        UpdateResult result = updater.update(s.ctx, name, (ctx, old) -> {
            if (old == null) {
                throw StatusException.notFound(s.groupResource(), name);
            }
            ObjectNode applied = fields.apply(old, config, manager, force);
            warnings.set(patch.checkPatched(applied));
            return typed(s, applied);
        }, new UpdateOptions(s.dryRun(), manager, s.fieldValidationParam()));
        warnings.get().forEach(s.ctx::addWarning);
        writeObject(s, response, callback, result.created() ? 201 : 200, result.object());
    }

    private static boolean exists(RequestScope s, String name) {
        try {
            require(s, Getter.class, "patch").get(s.ctx, name, "");
            return true;
        } catch (StatusException e) {
            if (e.code() == 404) {
                return false;
            }
            throw e;
        }
    }

    /** kube's answer to invalid PatchOptions: a 422 naming the option. */
    private static StatusException patchOptionsInvalid(FieldError error) {
        return StatusException.invalid("PatchOptions", "meta.k8s.io", "", List.of(error));
    }

    static void delete(RequestScope s, Response response, Callback callback) throws IOException {
        GracefulDeleter deleter = require(s, GracefulDeleter.class, "delete");
        DeleteOptions options = deleteOptions(s);
        DeleteResult result = deleter.delete(s.ctx, s.info.name(), options);
        ObjectNode deleted = result.object();
        Responses.addWarnings(response, s.ctx.warnings());
        if (!result.immediate()) {
            // An object kept by finalizers or a grace period is answered 200 with its current state; 202
            // only when the client asked for the legacy orphanDependents=false, as kube-apiserver does
            // so as not to break older clients.
            int code = Boolean.FALSE.equals(options.orphanDependents()) ? 202 : 200;
            writeUnconverted(s, response, callback, code, typed(s, deleted));
            return;
        }
        if (result.returnObject()) {
            writeUnconverted(s, response, callback, 200, typed(s, deleted));
            return;
        }
        writeUnconverted(s, response, callback, 200, StatusObjects.success(s.info.name(),
                s.groupVersion.group(), s.info.resource(), deleted.path("metadata").path("uid").asText("")));
    }

    static void deleteCollection(RequestScope s, Response response, Callback callback) throws IOException {
        CollectionDeleter deleter = require(s, CollectionDeleter.class, "deletecollection");
        ListResult deleted = deleter.deleteCollection(s.ctx, deleteOptions(s), s.listOptions(false));
        ObjectNode list = F.objectNode();
        list.put("kind", s.storage.kind() + "List");
        list.put("apiVersion", s.groupVersion.apiVersion());
        list.putObject("metadata").put("resourceVersion", Long.toString(deleted.resourceVersion()));
        ArrayNode items = list.putArray("items");
        deleted.items().forEach(o -> items.add(untyped(o)));
        Responses.addWarnings(response, s.ctx.warnings());
        writeUnconverted(s, response, callback, 200, list);
    }

    /** DeleteOptions from the body (optional) and the query; the query's dryRun and gracePeriodSeconds win. */
    private static DeleteOptions deleteOptions(RequestScope s) throws IOException {
        ObjectNode opts = s.request.getLength() == 0 ? F.objectNode() : s.decodeBodyOrEmpty();
        boolean dryRun = s.dryRun() || opts.path("dryRun").isArray() && !opts.path("dryRun").isEmpty();
        Long grace = null;
        String graceParam = s.param("gracePeriodSeconds");
        if (!graceParam.isEmpty()) {
            try {
                grace = Long.parseLong(graceParam);
            } catch (NumberFormatException e) {
                throw StatusException.badRequest("gracePeriodSeconds: Invalid value: \"" + graceParam + "\"");
            }
        } else if (opts.has("gracePeriodSeconds")) {
            grace = opts.get("gracePeriodSeconds").asLong();
        }
        JsonNode pre = opts.path("preconditions");
        Preconditions preconditions = new Preconditions(pre.path("uid").asText(null),
                pre.path("resourceVersion").asText(null));
        String propagation = s.param("propagationPolicy");
        if (propagation.isEmpty()) {
            propagation = opts.hasNonNull("propagationPolicy") ? opts.get("propagationPolicy").asText() : null;
        }
        Boolean orphanDependents = s.boolParam("orphanDependents");
        if (orphanDependents == null && opts.hasNonNull("orphanDependents")) {
            if (!opts.get("orphanDependents").isBoolean()) {
                throw StatusException.badRequest("orphanDependents: Invalid value: must be a boolean");
            }
            orphanDependents = opts.get("orphanDependents").asBoolean();
        }
        return new DeleteOptions(dryRun, grace, preconditions, propagation, orphanDependents);
    }

    /** The manager of a write: the valid {@code fieldManager} parameter, else the User-Agent's name. */
    private static String writer(RequestScope s) {
        fieldManager(s);
        return s.manager();
    }

    static String fieldManager(RequestScope s) {
        String m = s.param("fieldManager");
        if (m.length() > 128) {
            throw StatusException.badRequest("fieldManager: Too long: may not be more than 128 bytes");
        }
        return m.isEmpty() ? null : m;
    }

    /** Writes one object, or a one-row Table when the client asked for a Table. */
    private static void writeObject(RequestScope s, Response response, Callback callback, int code, ObjectNode obj) {
        ObjectNode out = typed(s, obj);
        // A PartialObjectMetadataList was refused by checkResponseForm before the request acted.
        Negotiation.Choice choice = Negotiation.choose(s);
        Responses.addWarnings(response, s.ctx.warnings());
        if (choice.output() == Negotiation.Output.PARTIAL_OBJECT_METADATA) {
            if (choice.protobuf()) {
                Responses.writeProtobuf(response, callback, code, partial(choice, out));
            } else {
                Responses.writeJson(response, callback, code, contentType(choice, "PartialObjectMetadata"),
                        partial(choice, out));
            }
            return;
        }
        if (choice.output() == Negotiation.Output.PROTOBUF) {
            Responses.writeProtobuf(response, callback, code, out);
            return;
        }
        if (choice.output() == Negotiation.Output.TABLE) {
            ObjectNode table = new TableConvertor(s.storage, choice.tableApiVersion(), s.param("includeObject"))
                    .table(List.of(out), F.objectNode().put("resourceVersion",
                            out.path("metadata").path("resourceVersion").asText("")));
            Responses.writeJson(response, callback, code, "application/json;as=Table;v=" + version(choice)
                    + ";g=meta.k8s.io", table);
            return;
        }
        Responses.writeObject(s.request, response, callback, code, out);
    }

    /**
     * Writes an answer that is never a Table or metadata only (a delete's answer, a deleted
     * collection): in protobuf when that was negotiated, else JSON or YAML.
     */
    static void writeUnconverted(RequestScope s, Response response, Callback callback, int code, ObjectNode body) {
        if (Negotiation.choose(s).output() == Negotiation.Output.PROTOBUF) {
            Responses.writeProtobuf(response, callback, code, body);
        } else {
            Responses.writeObject(s.request, response, callback, code, body);
        }
    }

    /** metav1.PartialObjectMetadata of an object: apiVersion, kind and metadata only. */
    private static ObjectNode partial(Negotiation.Choice choice, ObjectNode obj) {
        ObjectNode p = F.objectNode();
        p.put("kind", "PartialObjectMetadata");
        p.put("apiVersion", choice.tableApiVersion());
        p.set("metadata", obj.path("metadata").deepCopy());
        return p;
    }

    private static String contentType(Negotiation.Choice choice, String as) {
        return "application/json;as=" + as + ";v=" + version(choice) + ";g=meta.k8s.io";
    }

    /**
     * Refuses, before the request acts, a response form it could not be answered in: a Table with an
     * unsupported {@code includeObject} (400), or a PartialObjectMetadataList for a verb that answers
     * one object (406), so neither error follows a write.
     */
    static void checkResponseForm(RequestScope s, Negotiation.Choice choice) {
        if (choice.output() == Negotiation.Output.TABLE) {
            TableConvertor.checkIncludeObject(s.param("includeObject"));
        }
        if (choice.output() == Negotiation.Output.PARTIAL_OBJECT_METADATA_LIST
                && List.of("get", "create", "update", "patch").contains(s.info.verb())) {
            throw notAcceptable("you requested PartialObjectMetadataList, but the requested object is not a list");
        }
    }

    private static StatusException notAcceptable(String message) {
        return new StatusException(io.kubelix.api.errors.StatusReason.NOT_ACCEPTABLE, 406, message, null, null);
    }

    /** The object with the apiVersion and kind of the endpoint it is served from. */
    static ObjectNode typed(RequestScope s, ObjectNode obj) {
        obj.put("apiVersion", s.kind().groupVersion().apiVersion());
        obj.put("kind", s.kind().kind());
        return obj;
    }

    /** A typed list's item, as kube encodes one: its kind and apiVersion are the list's, and left out. */
    static ObjectNode untyped(ObjectNode obj) {
        obj.remove("apiVersion");
        obj.remove("kind");
        return obj;
    }

    private static String version(Negotiation.Choice c) {
        return c.tableApiVersion().substring(c.tableApiVersion().indexOf('/') + 1);
    }

    private static <T> T require(RequestScope s, Class<T> verb, String verbName) {
        if (!verb.isInstance(s.storage)) {
            throw StatusException.methodNotSupported(s.groupResource(), verbName);
        }
        return verb.cast(s.storage);
    }
}
