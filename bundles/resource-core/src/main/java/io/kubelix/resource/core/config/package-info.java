/** Configmaps and secrets: their data maps, keys and base64 values. */
package io.kubelix.resource.core.config;
