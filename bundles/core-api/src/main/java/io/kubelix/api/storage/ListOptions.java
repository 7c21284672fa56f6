package io.kubelix.api.storage;

import java.time.Duration;
import java.util.Objects;

/**
 * storage.ListOptions for {@link StorageInterface#getList} and {@link StorageInterface#watch}.
 *
 * @param resourceVersion      "", "0" or "N"; see {@link StorageInterface} for the meaning
 * @param resourceVersionMatch how to interpret {@code resourceVersion}
 * @param predicate            which objects are wanted
 * @param recursive            the key names a directory rather than one object
 * @param limit                most items to return from a list (0: no limit)
 * @param continueToken        a continue token from an earlier page, or null
 * @param progressNotify       a watch wants BOOKMARK events when idle
 * @param sendInitialEvents    a watch wants the current state as ADDED events first, then a BOOKMARK
 *                             annotated {@code k8s.io/initial-events-end: "true"} (WatchList); null when
 *                             not asked, which keeps the resourceVersion rules of {@link StorageInterface#watch}
 * @param timeout              for a watch: how long the server streams it from now (the request's
 *                             {@code timeoutSeconds}), or null when not bounded; with {@code progressNotify}
 *                             a watch cache sends a BOOKMARK shortly before it ends, so the client resumes
 *                             from a recent resourceVersion (kube passes it as the context's deadline)
 */
public record ListOptions(String resourceVersion, ResourceVersionMatch resourceVersionMatch,
                          SelectionPredicate predicate, boolean recursive, long limit,
                          String continueToken, boolean progressNotify, Boolean sendInitialEvents,
                          Duration timeout) {

    /** Options without a watch timeout. */
    public ListOptions(String resourceVersion, ResourceVersionMatch resourceVersionMatch,
                       SelectionPredicate predicate, boolean recursive, long limit,
                       String continueToken, boolean progressNotify, Boolean sendInitialEvents) {
        this(resourceVersion, resourceVersionMatch, predicate, recursive, limit, continueToken, progressNotify,
                sendInitialEvents, null);
    }

    /** Options without {@code sendInitialEvents}. */
    public ListOptions(String resourceVersion, ResourceVersionMatch resourceVersionMatch,
                       SelectionPredicate predicate, boolean recursive, long limit,
                       String continueToken, boolean progressNotify) {
        this(resourceVersion, resourceVersionMatch, predicate, recursive, limit, continueToken, progressNotify, null);
    }

    public ListOptions {
        resourceVersion = resourceVersion == null ? "" : resourceVersion;
        resourceVersionMatch = resourceVersionMatch == null ? ResourceVersionMatch.UNSET : resourceVersionMatch;
        predicate = predicate == null ? SelectionPredicate.EVERYTHING : predicate;
        Objects.requireNonNull(predicate);
    }

    /** Everything under a directory, most recent state. */
    public static ListOptions recursiveAll() {
        return new ListOptions("", ResourceVersionMatch.UNSET, SelectionPredicate.EVERYTHING, true, 0, null, false);
    }

    public ListOptions withResourceVersion(String rv) {
        return new ListOptions(rv, resourceVersionMatch, predicate, recursive, limit, continueToken, progressNotify,
                sendInitialEvents, timeout);
    }

    /** These options for a watch streamed for {@code t}. */
    public ListOptions withTimeout(Duration t) {
        return new ListOptions(resourceVersion, resourceVersionMatch, predicate, recursive, limit, continueToken,
                progressNotify, sendInitialEvents, t);
    }
}
