/**
 * The web console at {@code /kubelix/console/}: a static page, served before authentication
 * because it holds no data, and the authenticated JSON endpoint it polls with the bearer token the
 * user signs in with. Internal to core-runtime: nothing here is exported.
 */
package io.kubelix.runtime.console;
