/**
 * The operator's shell over HTTPS: {@code POST /kubelix/shell} runs one Gogo command line in the
 * running server (the {@code kubelix:*} commands, {@code lb}, {@code inspect}, {@code scr:list})
 * and answers its output as text; {@code bin/kubelix shell} is its client. Authenticated,
 * authorized, audited and measured like every non-resource request. Gogo is optional: without its
 * runtime bundle the endpoint answers 503. Internal to core-runtime: nothing here is exported.
 */
package io.kubelix.runtime.shell;
