/**
 * kube's storage/value: the transformers a stored value passes through (prefix selection, AES-CBC,
 * AES-GCM, NaCl secretbox), each writing exactly kube-apiserver's layout so data encrypted by one
 * server is readable by the other.
 */
package io.kubelix.runtime.storage.value;
