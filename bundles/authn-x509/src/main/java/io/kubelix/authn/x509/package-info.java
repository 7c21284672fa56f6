/**
 * Client certificate authentication ({@code --client-ca-file}). Private to the bundle.
 */
package io.kubelix.authn.x509;
