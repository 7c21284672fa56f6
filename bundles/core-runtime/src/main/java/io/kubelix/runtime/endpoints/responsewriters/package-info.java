/**
 * Writing answers to a response (k8s.io/apiserver's {@code endpoints/handlers/responsewriters}):
 * objects as JSON or YAML, errors as metav1.Status objects, warnings as headers, and a list
 * streamed from its items' cached encodings. The handlers, the filters and the server's own
 * endpoints all answer through it. Private to core-runtime.
 */
package io.kubelix.runtime.endpoints.responsewriters;
