package io.kubelix.runtime.storage.cacher;

import java.time.Duration;

/**
 * How a Cacher behaves.
 *
 * @param eventWindow       how many recent events the watch cache keeps; a watch may start from any
 *                          resourceVersion inside the window, older ones get 410 Gone
 * @param watcherBufferSize events a watcher may have queued before it counts as slow
 * @param slowWatcherGrace  how long one event's dispatch may wait, in total, for slow watchers before
 *                          terminating them; others are never delayed longer than this
 * @param bookmarkInterval  how often watchers that asked for bookmarks get one
 * @param freshnessTimeout  how long a read at resourceVersion N waits for the cache to reach N before
 *                          it is served by the storage instead
 */
public record CacherOptions(EventWindow eventWindow, int watcherBufferSize, Duration slowWatcherGrace,
                            Duration bookmarkInterval, Duration freshnessTimeout) {
    public static final CacherOptions DEFAULT = new CacherOptions(EventWindow.DEFAULT, 1_000, Duration.ofMillis(50),
            Duration.ofSeconds(60), Duration.ofSeconds(3));

    /** Options with a window of exactly {@code windowEvents} events. */
    public CacherOptions(int windowEvents, int watcherBufferSize, Duration slowWatcherGrace, Duration bookmarkInterval,
                         Duration freshnessTimeout) {
        this(EventWindow.fixed(windowEvents), watcherBufferSize, slowWatcherGrace, bookmarkInterval, freshnessTimeout);
    }

    /** These options with {@code window} instead. */
    public CacherOptions withEventWindow(EventWindow window) {
        return new CacherOptions(window, watcherBufferSize, slowWatcherGrace, bookmarkInterval, freshnessTimeout);
    }
}
