package io.kubelix.runtime.registry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.object.ObjectMeta;
import io.kubelix.api.object.Unstructured;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.registry.DeleteOptions;
import io.kubelix.api.registry.DeleteResult;
import io.kubelix.api.registry.StandardStorage;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.UpdateResult;
import io.kubelix.api.registry.UpdatedObjectInfo;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.schema.GroupResource;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.api.schema.ResourceSchema;
import io.kubelix.api.storage.GetOptions;
import io.kubelix.api.storage.ListOptions;
import io.kubelix.api.storage.ListResult;
import io.kubelix.api.storage.StorageException;
import io.kubelix.api.storage.StorageInterface;
import io.kubelix.api.storage.UpdateFunction;
import io.kubelix.api.storage.Watch;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The generic registry Store (genericregistry.Store): every verb of a resource over its
 * storage.Interface, parameterised by the resource's strategies. It fills the system fields
 * (uid, creationTimestamp, name from generateName), validates metadata, enforces optimistic
 * concurrency, runs admission, and turns storage errors into Status errors naming the resource.
 */
public final class GenericStore implements StandardStorage {
    /** kube-apiserver's etcd prefix, which its storage errors quote before an object's key. */
    private static final String KUBE_KEY_PREFIX = "/registry";
    private static final int GENERATE_NAME_ATTEMPTS = 8;
    private static final Runnable NOTHING = () -> { };

    private final StoreSpec spec;
    private final StorageInterface storage;
    private final AdmissionChain admission;
    /** What admission sees of this Store's updates; null: the objects themselves. */
    private final AdmissionView admissionView;
    /** What {@link #destroy()} releases besides. */
    private final Runnable onDestroy;

    public GenericStore(StoreSpec spec, StorageInterface storage, AdmissionChain admission) {
        this(spec, storage, admission, null, NOTHING);
    }

    /** A Store that runs {@code onDestroy} when it is destroyed (its provider went away). */
    GenericStore(StoreSpec spec, StorageInterface storage, AdmissionChain admission, Runnable onDestroy) {
        this(spec, storage, admission, null, onDestroy);
    }

    private GenericStore(StoreSpec spec, StorageInterface storage, AdmissionChain admission, AdmissionView view,
                         Runnable onDestroy) {
        this.spec = spec;
        this.storage = storage;
        this.admission = admission;
        this.admissionView = view;
        this.onDestroy = onDestroy;
    }

    @Override
    public void destroy() {
        onDestroy.run();
    }

    /**
     * What admission is shown of a subresource's update, where kube's handler admits the
     * subresource's own kind rather than the parent (a {@code scale} request admits an
     * {@code autoscaling/v1 Scale}).
     */
    interface AdmissionView {
        /** The kind admission is told it sees. */
        GroupVersionKind kind();

        /** The object admission sees for {@code parent}. */
        ObjectNode of(ObjectNode parent);

        /** Carries what mutating admission changed in {@code admitted} (made by {@link #of}) into {@code parent}. */
        void applyTo(ObjectNode admitted, ObjectNode parent);
    }

    /** The resource this Store serves. */
    GroupResource groupResource() {
        return spec.groupResource();
    }

    /** What this Store was built from: its storage prefix and conversion tell equivalent resources apart. */
    StoreSpec spec() {
        return spec;
    }

    @Override
    public String kind() {
        return spec.kind();
    }

    @Override
    public boolean namespaced() {
        return spec.namespaced();
    }

    @Override
    public String singularName() {
        return spec.singularName();
    }

    @Override
    public List<String> shortNames() {
        return spec.shortNames();
    }

    @Override
    public List<String> categories() {
        return spec.categories();
    }

    @Override
    public List<TableColumn> tableColumns() {
        return spec.tableColumns();
    }

    @Override
    public java.util.Map<String, java.util.function.Function<ObjectNode, String>> selectableFields() {
        return spec.selectableFields();
    }

    @Override
    public ResourceSchema schema() {
        return spec.schema();
    }

    @Override
    public List<String> patchTypes() {
        return spec.patchTypes();
    }

    @Override
    public String warning() {
        return spec.warning();
    }

    @Override
    public ObjectNode get(RequestContext ctx, String name, String resourceVersion) {
        try {
            return storage.get(key(ctx, name), new GetOptions(false, resourceVersion));
        } catch (StorageException e) {
            throw interpret(e, name);
        }
    }

    @Override
    public ListResult list(RequestContext ctx, ListOptions options) {
        try {
            return storage.getList(listKey(ctx), recursive(options));
        } catch (StorageException e) {
            throw interpret(e, "");
        }
    }

    @Override
    public Watch watch(RequestContext ctx, ListOptions options) {
        try {
            return storage.watch(listKey(ctx), recursive(options));
        } catch (StorageException e) {
            throw interpret(e, "");
        }
    }

    @Override
    public ObjectNode create(RequestContext ctx, ObjectNode input, CreateOptions options) {
        ObjectNode obj = input.deepCopy();
        ObjectMeta meta = Unstructured.wrap(obj).metadata();
        if (meta.resourceVersion() != null && !meta.resourceVersion().isEmpty()) {
            throw StatusException.badRequest("resourceVersion should not be set on objects to be created");
        }
        setNamespace(ctx, meta);
        ObjectNode admissionOptions = AdmissionOptions.of(options);
        admission.admit(attributes(Operation.CREATE, ctx, obj, null, options.dryRun(), admissionOptions));
        prepareForCreate(ctx, obj);
        boolean generated = meta.name() == null || meta.name().isEmpty();
        if (generated) {
            meta.name(NameGenerator.generate(meta.generateName() == null ? "" : meta.generateName()));
        }
        admission.validate(attributes(Operation.CREATE, ctx, obj, null, options.dryRun(), admissionOptions));
        spec.createStrategy().canonicalize(obj);
        omitEmpty(Unstructured.wrap(obj).metadata());
        if (options.dryRun()) {
            // As kube's DryRunnableStorage: a name in use is refused though nothing would be written.
            try {
                if (storage.get(key(ctx, meta.name()), new GetOptions(true, "")) != null) {
                    throw StatusException.alreadyExists(spec.groupResource(), meta.name());
                }
            } catch (StorageException e) {
                throw interpret(e, meta.name());
            }
            return obj;
        }
        for (int attempt = 1; ; attempt++) {
            try {
                return storage.create(key(ctx, meta.name()), obj);
            } catch (StorageException e) {
                // A generated name that collides is drawn again, as kube-apiserver's RetryGenerateName does.
                if (e.code() == StorageException.Code.KEY_EXISTS && generated && attempt < GENERATE_NAME_ATTEMPTS) {
                    meta.name(NameGenerator.generate(meta.generateName()));
                    continue;
                }
                throw interpret(e, meta.name());
            }
        }
    }

    @Override
    public UpdateResult update(RequestContext ctx, String name, UpdatedObjectInfo objInfo, UpdateOptions options) {
        String key = key(ctx, name);
        boolean createOnUpdate = spec.updateStrategy().allowCreateOnUpdate();
        boolean[] created = new boolean[1];
        UpdateFunction tryUpdate = (existing, revision) -> {
            if (existing != null) {
                checkPreconditions(key, name, objInfo.preconditions(), existing, revision);
            }
            created[0] = existing == null;
            return existing == null
                    ? createdByUpdate(ctx, name, objInfo, options)
                    : updated(ctx, name, objInfo, existing, revision, options);
        };
        try {
            if (options.dryRun()) {
                ObjectNode existing = storage.get(key, new GetOptions(createOnUpdate, ""));
                long revision = existing == null ? 0 : storage.versioner().objectResourceVersion(existing);
                ObjectNode result = tryUpdate.apply(existing, revision);
                return new UpdateResult(result, created[0]);
            }
            ObjectNode stored = storage.guaranteedUpdate(key, createOnUpdate, io.kubelix.api.storage.Preconditions.NONE,
                    tryUpdate);
            return new UpdateResult(stored, created[0]);
        } catch (EmptiedFinalizers e) {
            return new UpdateResult(deleteWithoutFinalizers(key, name, e.object, e.uid, options.dryRun()), false);
        } catch (StorageException e) {
            throw interpret(e, name);
        }
    }

    /**
     * An update's preconditions (a PUT's uid), checked against the current object as kube's storage
     * checks them. A mismatch is answered as kube answers its InvalidObj storage error: a Conflict
     * quoting the storage error, with the key as kube's etcd keys read ({@code /registry/configmaps/ns/a}).
     */
    private void checkPreconditions(String key, String name, io.kubelix.api.storage.Preconditions preconditions,
                                    ObjectNode existing, long revision) {
        try {
            preconditions.check(key, existing, revision);
        } catch (StorageException e) {
            throw StatusException.conflict(spec.groupResource(), name, "StorageError: invalid object, Code: 4, Key: "
                    + KUBE_KEY_PREFIX + key + ", ResourceVersion: 0, AdditionalErrorMsg: " + e.getMessage());
        }
    }

    /**
     * deleteWithoutFinalizers: the update took the last finalizer from an object being deleted,
     * so it goes now. The client of the PUT or PATCH gets the object as updated, as kube answers.
     */
    private ObjectNode deleteWithoutFinalizers(String key, String name, ObjectNode obj, String uid, boolean dryRun) {
        if (dryRun) {
            return obj;
        }
        try {
            // The UPDATE has passed admission; only the uid must still be the one updated.
            storage.delete(key, new io.kubelix.api.storage.Preconditions(uid, null), current -> { });
        } catch (StorageException e) {
            // Another update removing the last finalizer may have won the race: the object is gone either way.
            if (e.code() != StorageException.Code.KEY_NOT_FOUND) {
                throw interpret(e, name);
            }
        }
        return obj;
    }

    /**
     * Store.Delete. An object with finalizers, or one that the propagation policy gives the
     * {@code orphan} or {@code foregroundDeletion} finalizer, is only marked for deletion and
     * returned with {@code immediate == false}; anything else is removed from storage at once.
     */
    @Override
    public DeleteResult delete(RequestContext ctx, String name, DeleteOptions options) {
        Deletion.validateOptions(options);
        String key = key(ctx, name);
        ObjectNode existing;
        try {
            existing = storage.get(key, GetOptions.DEFAULT);
        } catch (StorageException e) {
            throw interpret(e, name);
        }
        Deletion deletion = new Deletion(spec, ctx, options);
        Deletion.Before before = deletion.beforeDelete(existing.deepCopy());
        if (before == Deletion.Before.PENDING) {
            return new DeleteResult(existing, false);
        }
        io.kubelix.api.storage.Preconditions preconditions = options.preconditions();
        boolean hasFinalizers = !Unstructured.wrap(existing).metadata().finalizers().isEmpty()
                || spec.deleteStrategy().hasPendingFinalizers(existing);
        if (before == Deletion.Before.GRACEFUL || hasFinalizers || deletion.finalizersForGC(existing) != null) {
            UpdateFunction mark = (current, revision) -> {
                admission.validate(attributes(Operation.DELETE, ctx, null, current, options.dryRun(), AdmissionOptions.of(options)));
                return deletion.markForDeletion(current);
            };
            ObjectNode marked;
            try {
                if (options.dryRun()) {
                    options.preconditions().check(key, existing, storage.versioner().objectResourceVersion(existing));
                    marked = mark.apply(existing.deepCopy(), storage.versioner().objectResourceVersion(existing));
                } else {
                    marked = storage.guaranteedUpdate(key, false, preconditions, mark);
                }
            } catch (Deletion.DeleteNow now) {
                marked = null;
            } catch (Deletion.AlreadyDeleting pending) {
                return new DeleteResult(existing, false);
            } catch (StorageException e) {
                throw interpret(e, name);
            }
            if (marked != null) {
                if (!deletion.deleteImmediately()) {
                    return new DeleteResult(marked, false);
                }
                if (options.dryRun()) {
                    return deleted(marked);
                }
                // A graceful delete with a zero period wrote the object once more; delete that version.
                if (preconditions.resourceVersion() != null) {
                    preconditions = new io.kubelix.api.storage.Preconditions(preconditions.uid(),
                            Unstructured.wrap(marked).metadata().resourceVersion());
                }
            }
        }
        try {
            if (options.dryRun()) {
                options.preconditions().check(key, existing, storage.versioner().objectResourceVersion(existing));
                admission.validate(attributes(Operation.DELETE, ctx, null, existing, true, AdmissionOptions.of(options)));
                return deleted(existing);
            }
            ObjectNode deleted = storage.delete(key, preconditions,
                    current -> admission.validate(attributes(Operation.DELETE, ctx, null, current, false,
                            AdmissionOptions.of(options))));
            return deleted(deleted);
        } catch (StorageException e) {
            throw interpret(e, name);
        }
    }

    /** The result of a delete that removed {@code object}, answered as the resource's delete strategy says. */
    private DeleteResult deleted(ObjectNode object) {
        return new DeleteResult(object, true, spec.deleteStrategy().returnDeletedObject());
    }

    /**
     * Store.DeleteCollection: deletes each listed object as {@link #delete} does (so finalizers
     * hold the ones that have any) and answers the list as it was read, as kube does.
     */
    @Override
    public ListResult deleteCollection(RequestContext ctx, DeleteOptions options, ListOptions listOptions) {
        Deletion.validateOptions(options);
        ListResult all = list(ctx, new ListOptions(listOptions.resourceVersion(), listOptions.resourceVersionMatch(),
                listOptions.predicate(), true, 0, null, false));
        for (ObjectNode item : all.items()) {
            ObjectMeta meta = Unstructured.wrap(item).metadata();
            RequestContext itemCtx = meta.namespace() == null ? ctx : new ScopedContext(ctx, meta.namespace());
            try {
                delete(itemCtx, meta.name(), options);
            } catch (StatusException e) {
                if (e.code() != 404) {
                    throw e;
                }
            }
        }
        return new ListResult(all.items(), all.resourceVersion(), null, null);
    }

    /** This Store with another update strategy: the Store behind a status subresource. */
    GenericStore withUpdateStrategy(io.kubelix.api.registry.RESTUpdateStrategy strategy) {
        return new GenericStore(spec.withUpdateStrategy(strategy), storage, admission, admissionView, NOTHING);
    }

    /** This Store with its updates shown to admission through {@code view}: the Store behind a scale subresource. */
    GenericStore withAdmissionView(AdmissionView view) {
        return new GenericStore(spec, storage, admission, view, NOTHING);
    }

    private ObjectNode createdByUpdate(RequestContext ctx, String name, UpdatedObjectInfo objInfo, UpdateOptions options) {
        boolean dryRun = options.dryRun();
        // As kube's update handler admits a create through PUT or PATCH: with the update's options as CreateOptions.
        ObjectNode admissionOptions = AdmissionOptions.of(new CreateOptions(dryRun, options.fieldManager(),
                options.fieldValidation()));
        ObjectNode obj = objInfo.updatedObject(ctx, null).deepCopy();
        ObjectMeta meta = Unstructured.wrap(obj).metadata();
        checkName(meta, name);
        meta.resourceVersion(null);
        setNamespace(ctx, meta);
        admission.admit(attributes(Operation.CREATE, ctx, obj, null, dryRun, admissionOptions));
        prepareForCreate(ctx, obj);
        admission.validate(attributes(Operation.CREATE, ctx, obj, null, dryRun, admissionOptions));
        spec.createStrategy().canonicalize(obj);
        omitEmpty(Unstructured.wrap(obj).metadata());
        return obj;
    }

    private ObjectNode updated(RequestContext ctx, String name, UpdatedObjectInfo objInfo, ObjectNode existing,
                               long revision, UpdateOptions options) {
        boolean dryRun = options.dryRun();
        ObjectNode admissionOptions = AdmissionOptions.of(options);
        ObjectNode obj = objInfo.updatedObject(ctx, existing.deepCopy()).deepCopy();
        ObjectMeta meta = Unstructured.wrap(obj).metadata();
        ObjectMeta oldMeta = Unstructured.wrap(existing).metadata();
        checkName(meta, name);
        String rv = meta.resourceVersion();
        if (rv == null || rv.isEmpty()) {
            if (!spec.updateStrategy().allowUnconditionalUpdate()) {
                throw invalid(meta.name(), List.of(FieldError.invalid("metadata.resourceVersion", "",
                        "must be specified for an update")));
            }
        } else if (storage.versioner().parseResourceVersion(rv) != revision) {
            throw StatusException.conflict(spec.groupResource(), name,
                    "the object has been modified; please apply your changes to the latest version and try again");
        }
        meta.resourceVersion(Long.toString(revision));
        setNamespace(ctx, meta);
        if (meta.uid() == null || meta.uid().isEmpty()) {
            meta.uid(oldMeta.uid());
        }
        // rest.BeforeUpdate: changes to creationTimestamp are ignored and generation is the server's.
        if (oldMeta.creationTimestamp() != null) {
            meta.creationTimestamp(oldMeta.creationTimestamp());
        }
        if (oldMeta.generation() == 0) {
            meta.node().remove("generation");
        } else {
            meta.generation(oldMeta.generation());
        }
        // The handler worked out managedFields for this very write (see the strategy's prepareForUpdate below).
        JsonNode managedFields = meta.node().get("managedFields");
        // An update can never remove or change the deletion timestamp, nor remove the grace period.
        if (oldMeta.deletionTimestamp() != null) {
            meta.deletionTimestamp(oldMeta.deletionTimestamp());
        }
        if (oldMeta.node().hasNonNull("deletionGracePeriodSeconds") && !meta.node().hasNonNull("deletionGracePeriodSeconds")) {
            meta.node().set("deletionGracePeriodSeconds", oldMeta.node().get("deletionGracePeriodSeconds").deepCopy());
        }
        admitUpdate(ctx, obj, existing, dryRun, admissionOptions);
        spec.updateStrategy().prepareForUpdate(ctx, obj, existing);
        // The handler worked out managedFields for this very write; a status strategy resetting metadata
        // keeps them, as kube's ResetObjectMetaForStatus does.
        ObjectMeta prepared = Unstructured.wrap(obj).metadata();
        if (managedFields == null) {
            prepared.node().remove("managedFields");
        } else {
            prepared.node().set("managedFields", managedFields);
        }
        if (spec.generation() && !specEquals(obj, existing)) {
            meta.generation(oldMeta.generation() + 1);
        }
        List<FieldError> errs = ObjectMetaValidation.validateUpdate(meta.node(), oldMeta.node(), spec.nameValidation(),
                spec.namespaced());
        errs.addAll(spec.updateStrategy().validateUpdate(ctx, obj, existing));
        if (!errs.isEmpty()) {
            throw invalid(meta.name(), errs);
        }
        spec.updateStrategy().warningsOnUpdate(ctx, obj, existing).forEach(ctx::addWarning);
        validateUpdate(ctx, obj, existing, dryRun, admissionOptions);
        spec.createStrategy().canonicalize(obj);
        omitEmpty(Unstructured.wrap(obj).metadata());
        if (Deletion.shouldDeleteDuringUpdate(spec, obj, existing)) {
            throw new EmptiedFinalizers(obj, oldMeta.uid());
        }
        return obj;
    }

    /**
     * Whether two objects are equal outside metadata and status: what kube's strategies of
     * resources with a spec compare before bumping the generation.
     */
    private static boolean specEquals(ObjectNode a, ObjectNode b) {
        ObjectNode x = a.deepCopy();
        ObjectNode y = b.deepCopy();
        for (String f : new String[] {"metadata", "status", "apiVersion", "kind"}) {
            x.remove(f);
            y.remove(f);
        }
        return x.equals(y);
    }

    /**
     * Drops the metadata collections that are null or empty, as encoding metav1.ObjectMeta does
     * ({@code omitempty}): kube-apiserver never stores nor returns {@code labels: {}} or
     * {@code finalizers: []}, such as what removing the last label or annotation leaves.
     */
    private static void omitEmpty(ObjectMeta meta) {
        for (String field : new String[] {"labels", "annotations", "finalizers", "ownerReferences", "managedFields"}) {
            JsonNode v = meta.node().get(field);
            if (v != null && (v.isNull() || v.isContainerNode() && v.isEmpty())) {
                meta.node().remove(field);
            }
        }
    }

    /** errEmptiedFinalizers: ends the storage update so the object can be deleted instead. */
    private static final class EmptiedFinalizers extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient ObjectNode object;
        final String uid;

        EmptiedFinalizers(ObjectNode object, String uid) {
            super(null, null, false, false);
            this.object = object;
            this.uid = uid;
        }
    }

    /** BeforeCreate: strategy defaults, system fields, then validation. */
    private void prepareForCreate(RequestContext ctx, ObjectNode obj) {
        ObjectMeta meta = Unstructured.wrap(obj).metadata();
        spec.createStrategy().prepareForCreate(ctx, obj);
        if (spec.generation()) {
            meta.generation(1);
        }
        meta.uid(UUID.randomUUID().toString());
        meta.creationTimestamp(Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        meta.deletionTimestamp(null);
        meta.node().remove("deletionGracePeriodSeconds");
        List<FieldError> errs = ObjectMetaValidation.validate(meta.node(), spec.nameValidation(), spec.namespaced());
        errs.addAll(spec.createStrategy().validate(ctx, obj));
        if (!errs.isEmpty()) {
            String name = meta.name() != null ? meta.name() : meta.generateName() == null ? "" : meta.generateName();
            throw invalid(name, errs);
        }
        spec.createStrategy().warningsOnCreate(ctx, obj).forEach(ctx::addWarning);
    }

    private void setNamespace(RequestContext ctx, ObjectMeta meta) {
        if (!spec.namespaced()) {
            meta.namespace(null);
            return;
        }
        String requested = ctx.namespace();
        String given = meta.namespace();
        if (given != null && !given.isEmpty() && !requested.isEmpty() && !given.equals(requested)) {
            throw StatusException.badRequest("the namespace of the provided object does not match the namespace sent "
                    + "on the request");
        }
        if (!requested.isEmpty()) {
            meta.namespace(requested);
        }
    }

    private void checkName(ObjectMeta meta, String name) {
        String given = meta.name();
        if (given == null || given.isEmpty()) {
            meta.name(name);
        } else if (!given.equals(name)) {
            throw StatusException.badRequest("the name of the object (" + given + ") does not match the name on the URL ("
                    + name + ")");
        }
    }

    /** Mutating admission of an update, through the admission view when this Store has one. */
    private void admitUpdate(RequestContext ctx, ObjectNode obj, ObjectNode existing, boolean dryRun,
                             ObjectNode options) {
        if (admissionView == null) {
            admission.admit(attributes(Operation.UPDATE, ctx, obj, existing, dryRun, options));
            return;
        }
        ObjectNode viewed = admissionView.of(obj);
        ObjectNode before = viewed.deepCopy();
        admission.admit(viewAttributes(ctx, viewed, obj, existing, dryRun, options));
        if (!viewed.equals(before)) {
            admissionView.applyTo(viewed, obj);
        }
    }

    /** Validating admission of an update, through the admission view when this Store has one. */
    private void validateUpdate(RequestContext ctx, ObjectNode obj, ObjectNode existing, boolean dryRun,
                                ObjectNode options) {
        if (admissionView == null) {
            admission.validate(attributes(Operation.UPDATE, ctx, obj, existing, dryRun, options));
        } else {
            admission.validate(viewAttributes(ctx, admissionView.of(obj), obj, existing, dryRun, options));
        }
    }

    /** The UPDATE attributes of the admission view {@code viewed} of {@code parent}, the parent replacing {@code existing}. */
    private AdmissionAttributes viewAttributes(RequestContext ctx, ObjectNode viewed, ObjectNode parent,
                                               ObjectNode existing, boolean dryRun, ObjectNode options) {
        AdmissionAttributes a = attributes(Operation.UPDATE, ctx, parent, existing, dryRun, options);
        return new AdmissionAttributes(a.operation(), admissionView.kind(), a.resource(), a.subresource(), a.namespace(),
                a.name(), viewed, admissionView.of(existing), dryRun, ctx, options, null);
    }

    private AdmissionAttributes attributes(Operation op, RequestContext ctx, ObjectNode obj, ObjectNode old,
                                           boolean dryRun, ObjectNode options) {
        ObjectNode any = obj != null ? obj : old;
        GroupVersion gv = groupVersion(ctx, any);
        RequestInfo info = ctx.requestInfo();
        ObjectMeta meta = Unstructured.wrap(any).metadata();
        return new AdmissionAttributes(op, GroupVersionKind.of(gv, spec.kind()),
                GroupVersionResource.of(gv, spec.groupResource().resource()),
                info == null ? "" : info.subresource(),
                spec.namespaced() && meta.namespace() != null ? meta.namespace() : "",
                meta.name() == null ? "" : meta.name(), obj, old, dryRun, ctx, options, null);
    }

    private GroupVersion groupVersion(RequestContext ctx, ObjectNode obj) {
        RequestInfo info = ctx.requestInfo();
        if (info != null && info.resourceRequest()) {
            return new GroupVersion(info.apiGroup(), info.apiVersion());
        }
        String apiVersion = Unstructured.wrap(obj).apiVersion();
        return apiVersion == null ? new GroupVersion(spec.groupResource().group(), "") : GroupVersion.parse(apiVersion);
    }

    private String key(RequestContext ctx, String name) {
        if (name == null || name.isEmpty()) {
            throw StatusException.badRequest("resource name may not be empty");
        }
        for (String msg : io.kubelix.api.validation.NameValidators.isValidPathSegmentName(name)) {
            throw StatusException.badRequest("invalid resource name \"" + name + "\": " + msg);
        }
        if (!spec.namespaced()) {
            return spec.resourcePrefix() + "/" + name;
        }
        if (ctx.namespace().isEmpty()) {
            throw StatusException.badRequest("Namespace parameter required.");
        }
        return spec.resourcePrefix() + "/" + ctx.namespace() + "/" + name;
    }

    private String listKey(RequestContext ctx) {
        return spec.namespaced() && !ctx.namespace().isEmpty()
                ? spec.resourcePrefix() + "/" + ctx.namespace() : spec.resourcePrefix();
    }

    private static ListOptions recursive(ListOptions o) {
        return new ListOptions(o.resourceVersion(), o.resourceVersionMatch(), o.predicate(), true, o.limit(),
                o.continueToken(), o.progressNotify(), o.sendInitialEvents(), o.timeout());
    }

    private StatusException invalid(String name, List<FieldError> errs) {
        return StatusException.invalid(spec.kind(), spec.groupResource().group(), name, errs);
    }

    /** storeerr.InterpretXError: a storage error as the Status a client expects. */
    private StatusException interpret(StorageException e, String name) {
        return switch (e.code()) {
            case KEY_NOT_FOUND -> StatusException.notFound(spec.groupResource(), name);
            case KEY_EXISTS -> StatusException.alreadyExists(spec.groupResource(), name);
            case RESOURCE_VERSION_CONFLICTS -> StatusException.conflict(spec.groupResource(), name, e.getMessage());
            case UNREACHABLE -> StatusException.serviceUnavailable("storage is unreachable: " + e.getMessage());
            case INVALID_OBJECT, INTERNAL -> StatusException.internalError(e.getMessage(), e);
        };
    }

    /** The caller's context moved to one namespace, for per-item deletes of a collection. */
    private record ScopedContext(RequestContext parent, String namespace) implements RequestContext {
        @Override
        public io.kubelix.api.request.UserInfo user() {
            return parent.user();
        }

        @Override
        public RequestInfo requestInfo() {
            return parent.requestInfo();
        }

        @Override
        public void addWarning(String message) {
            parent.addWarning(message);
        }
    }
}
