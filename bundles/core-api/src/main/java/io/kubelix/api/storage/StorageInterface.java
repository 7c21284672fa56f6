package io.kubelix.api.storage;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.osgi.annotation.versioning.ConsumerType;

/**
 * storage.Interface: the contract every storage backend implements for one resource.
 *
 * <h2>Revisions</h2>
 * A backend keeps one strictly increasing revision for everything it stores (etcd's
 * {@code mod_revision}); every write gets the next revision, and an object's
 * {@code metadata.resourceVersion} is the revision of its last write, as a decimal string.
 * Objects handed to a backend may carry a resourceVersion; the backend ignores it and never stores
 * it. Objects handed out are fresh trees the caller owns.
 *
 * <h2>resourceVersion on reads</h2>
 * <ul>
 *   <li>{@code ""} (unset): the most recent state, read consistently from the backend.</li>
 *   <li>{@code "0"}: any state is acceptable (a cache may answer).</li>
 *   <li>{@code "N"}: with {@link ResourceVersionMatch#NOT_OLDER_THAN} (the default for a
 *       non-zero version), a state at least as new as N; with {@link ResourceVersionMatch#EXACT},
 *       exactly the state at revision N, or a 410 {@code Expired} status when N is no longer
 *       retained. A version the backend has not reached yet is a 504 {@code Timeout}.</li>
 * </ul>
 *
 * <h2>Keys</h2>
 * Keys are whole paths such as {@code /configmaps/default/app}, starting with the resource's
 * {@link StorageConfig#resourcePrefix()}; the backend adds its own prefix (etcd's {@code /registry}).
 * An object's key follows its metadata, as the generic Store writes it:
 * {@code <prefix>/<namespace>/<name>}, or {@code <prefix>/<name>} without a namespace; the watch
 * cache relies on it to place the objects it is sent.
 * A list or watch key names a directory ({@code /configmaps/default}) when
 * {@link ListOptions#recursive()} is set, or a single object otherwise.
 *
 * <h2>Errors</h2>
 * Key-level failures are {@link StorageException}s (the generic Store turns them into Status
 * errors naming the resource); an update function's own {@code StatusException} passes through
 * unchanged; a version outside the retained window is a 410 {@code StatusException}.
 */
@ConsumerType
public interface StorageInterface {

    /** How this backend reads and writes resourceVersions. */
    Versioner versioner();

    /**
     * Stores {@code obj} under {@code key} unless the key exists.
     *
     * @return the stored object, with its new resourceVersion
     * @throws StorageException {@code KEY_EXISTS} when the key is taken
     */
    ObjectNode create(String key, ObjectNode obj);

    /**
     * Deletes the object at {@code key}, checking {@code preconditions} and then
     * {@code validateDeletion} against the current object. Retries on a concurrent write, so
     * both checks always see the state that is deleted.
     *
     * @return the object as it was deleted, its resourceVersion set to the deletion's revision
     * @throws StorageException {@code KEY_NOT_FOUND} when nothing is stored there, or
     *                          {@code RESOURCE_VERSION_CONFLICTS} when a precondition fails
     */
    ObjectNode delete(String key, Preconditions preconditions, ValidateObjectFunction validateDeletion);

    /**
     * {@link #delete(String, Preconditions, ValidateObjectFunction)} that may start from
     * {@code cachedExisting}, a recent copy of the object (a watch cache's), instead of reading it
     * first, as kube's Delete does with its cachedExistingObject: the delete is conditional on that
     * copy's resourceVersion, and when the copy turns out stale (the delete fails, or the
     * preconditions or {@code validateDeletion} reject it) the backend reads the current object
     * and goes on from it. The backend may hand {@code cachedExisting} to the checks. Null, and
     * the default implementation, read first.
     */
    default ObjectNode delete(String key, Preconditions preconditions, ValidateObjectFunction validateDeletion,
                              ObjectNode cachedExisting) {
        return delete(key, preconditions, validateDeletion);
    }

    /**
     * Streams the changes under {@code key} (a directory when {@code opts.recursive()}).
     * <ul>
     *   <li>resourceVersion {@code ""} or {@code "0"}: first an {@code ADDED} event for every
     *       object that currently matches, then every later change.</li>
     *   <li>resourceVersion {@code "N"}: every change after revision N, once and in order; a 410
     *       {@code Expired} StatusException when N is older than the retained window.</li>
     * </ul>
     * Events are filtered by {@code opts.predicate()}: an object that stops matching is delivered
     * as {@code DELETED}, one that starts matching as {@code ADDED}. With
     * {@code opts.progressNotify()} the backend sends {@code BOOKMARK} events carrying only the
     * current resourceVersion when it has nothing else to say.
     */
    Watch watch(String key, ListOptions opts);

    /**
     * Reads the object at {@code key}.
     *
     * @return the object, or null when it does not exist and {@code opts.ignoreNotFound()}
     * @throws StorageException {@code KEY_NOT_FOUND} when it does not exist
     */
    ObjectNode get(String key, GetOptions opts);

    /**
     * Lists the objects under the directory {@code key} that match {@code opts.predicate()},
     * ordered by key. With a limit, at most that many are returned with a continue token that
     * reads the rest from the same revision; a continue token whose revision has been compacted
     * is a 410 {@code Expired} StatusException.
     */
    ListResult getList(String key, ListOptions opts);

    /**
     * Reads the object at {@code key}, applies {@code tryUpdate} and writes the result if nothing
     * changed in between; on a concurrent write it reads again and calls {@code tryUpdate} again,
     * so no update is lost. When the function returns an object equal to its input nothing is
     * written and the current object is returned.
     *
     * @param ignoreNotFound when true, a missing object is passed to {@code tryUpdate} as null
     *                       (create on update); otherwise it is {@code KEY_NOT_FOUND}
     * @return the object as stored, with its resourceVersion
     */
    ObjectNode guaranteedUpdate(String key, boolean ignoreNotFound, Preconditions preconditions, UpdateFunction tryUpdate);

    /**
     * {@link #guaranteedUpdate(String, boolean, Preconditions, UpdateFunction)} that may start from
     * {@code cachedExisting}, a recent copy of the object (a watch cache's), instead of reading it
     * first, as kube's GuaranteedUpdate does with its cachedExistingObject: the write is
     * conditional on that copy's resourceVersion, and when the copy turns out stale (the write
     * fails, or the preconditions, {@code tryUpdate} or the no-change check reject it) the
     * backend reads the current object and goes on from it, so the outcome is the same as without
     * the copy. The backend may hand {@code cachedExisting} to {@code tryUpdate}. Null, and the
     * default implementation, read first.
     */
    default ObjectNode guaranteedUpdate(String key, boolean ignoreNotFound, Preconditions preconditions,
                                        UpdateFunction tryUpdate, ObjectNode cachedExisting) {
        return guaranteedUpdate(key, ignoreNotFound, preconditions, tryUpdate);
    }

    /** The number of objects under the directory {@code key}. */
    long count(String key);

    /** The backend's current revision: the resourceVersion a consistent read would observe. */
    long currentResourceVersion();
}
