/**
 * The webhook authorizer ({@code --authorization-mode=Webhook}). Private to the bundle.
 */
package io.kubelix.authz.webhook;
