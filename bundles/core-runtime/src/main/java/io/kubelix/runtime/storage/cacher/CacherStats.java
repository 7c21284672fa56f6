package io.kubelix.runtime.storage.cacher;

/**
 * A Cacher's counters since it started, for the metrics endpoint to publish (as
 * kube-apiserver's apiserver_watch_cache_* and apiserver_terminated_watchers_total).
 *
 * @param events                   backend events applied to the cache
 * @param watchers                 watchers open now
 * @param watchersStarted          watches served from the cache
 * @param slowWatchersTerminated   watchers ended because they fell behind
 * @param readsFromCache           GETs and LISTs answered by the cache
 * @param readsFromStorage         GETs and LISTs passed to the storage (paged, EXACT, or the cache behind)
 * @param relists                  times the cache listed the backend again
 * @param resourceVersion          the revision the cache has reached
 * @param windowCapacity           how many events the window holds now (apiserver_watch_cache_capacity)
 * @param objects                  how many objects the cache holds (apiserver_storage_objects), -1 before it has listed
 */
public record CacherStats(long events, long watchers, long watchersStarted, long slowWatchersTerminated,
                          long readsFromCache, long readsFromStorage, long relists, long resourceVersion,
                          int windowCapacity, long objects) {
}
