package io.kubelix.storage.memory;

import org.osgi.service.metatype.annotations.AttributeDefinition;
import org.osgi.service.metatype.annotations.ObjectClassDefinition;

/** Configuration of the memory backend (pid {@code io.kubelix.storage.memory}); "$_$" in a name is "-". */
@ObjectClassDefinition(name = "Kubelix memory storage",
        description = "The MVCC in-memory storage backend (--storage-backend=memory).")
public @interface MemoryStorageConfig {

    @AttributeDefinition(name = "Event history size", min = "1",
            description = "How many revisions are retained for watches, EXACT reads and continue tokens;"
                    + " older ones answer 410 Expired (etcd's compaction window).")
    int event$_$history$_$size() default 10000;

    @AttributeDefinition(name = "Watch queue size", min = "1",
            description = "How many events a watcher may fall behind before its watch is ended and its client"
                    + " must re-watch.")
    int watch$_$queue$_$size() default 10000;

    @AttributeDefinition(name = "Progress notify interval (ms)", min = "10",
            description = "How long a watch that asked for progress notifications stays idle before it gets a"
                    + " BOOKMARK.")
    long progress$_$notify$_$interval$_$ms() default 1000;
}
