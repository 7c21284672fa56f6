/**
 * The patch engines of a PATCH request (apimachinery's {@code jsonpatch}, {@code jsonmergepatch}
 * and {@code strategicpatch}): JSON patch, JSON merge patch, and strategic merge patch driven by
 * the resource's OpenAPI schema. Server-side apply is the field manager's ({@code fieldmanager}).
 * Private to core-runtime.
 */
package io.kubelix.runtime.patch;
