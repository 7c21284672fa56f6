/**
 * The rate-limited work queue and its rate limiters (client-go's {@code util/workqueue}).
 */
package io.kubelix.runtime.controller.workqueue;
