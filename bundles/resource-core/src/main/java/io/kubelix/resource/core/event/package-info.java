/** Core/v1 events. */
package io.kubelix.resource.core.event;
