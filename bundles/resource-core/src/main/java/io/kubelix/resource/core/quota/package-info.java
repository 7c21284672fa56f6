/** Resource quotas and limit ranges: the quota controller, and the ResourceQuota and LimitRanger admission plugins. */
package io.kubelix.resource.core.quota;
