/**
 * The project's CEL engine, on Google's cel-java: {@link io.kubelix.support.cel.CelEnvironment}
 * declares variables and compiles expressions, {@link io.kubelix.support.cel.CelExpression} runs
 * them with JSON bindings under a cost limit. Embedded privately by each plugin that needs it
 * (bnd {@code -conditionalpackage: io.kubelix.support.*, dev.cel.*, ...}); not a bundle.
 */
package io.kubelix.support.cel;
