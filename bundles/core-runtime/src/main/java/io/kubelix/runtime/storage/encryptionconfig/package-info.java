/**
 * kube's server/options/encryptionconfig: {@code --encryption-provider-config} read, validated and
 * turned into each resource's transformer, and read again when it changes with
 * {@code --encryption-provider-config-automatic-reload}.
 */
package io.kubelix.runtime.storage.encryptionconfig;
