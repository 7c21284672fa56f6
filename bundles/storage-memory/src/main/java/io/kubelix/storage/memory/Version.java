package io.kubelix.storage.memory;

/**
 * One live version of a key: the serialized object (without resourceVersion) and the revision
 * that wrote it. The bytes are never modified once stored.
 */
record Version(long modRevision, byte[] data) {
}
