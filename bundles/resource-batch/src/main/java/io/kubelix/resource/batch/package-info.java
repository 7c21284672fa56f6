/**
 * The batch API group at {@code /apis/batch/v1}: jobs and cronjobs. Private to the bundle.
 *
 * <p>{@link io.kubelix.resource.batch.BatchRESTStorageProvider} builds a generic Store per resource with
 * kube's batch/v1 defaults, the generated job selector, kube's validation (cron schedules and time
 * zones included), a status subresource and kube's printer columns; pod templates are defaulted and
 * validated with core-api's {@code io.kubelix.api.core.v1}.
 */
package io.kubelix.resource.batch;
