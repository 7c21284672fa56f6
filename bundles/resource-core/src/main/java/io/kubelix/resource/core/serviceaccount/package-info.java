/**
 * Service accounts, with {@code token}; the controller that makes each namespace's {@code default}
 * account, and the ServiceAccount admission plugin.
 */
package io.kubelix.resource.core.serviceaccount;
