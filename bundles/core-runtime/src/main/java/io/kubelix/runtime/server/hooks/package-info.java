/**
 * Post-start hooks: named start-up tasks whose completion {@code /readyz} waits for.
 */
package io.kubelix.runtime.server.hooks;
