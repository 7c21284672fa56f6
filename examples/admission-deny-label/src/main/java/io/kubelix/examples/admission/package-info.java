/**
 * An example admission plugin: refuses every object labelled {@code kubelix.io/forbidden=true}.
 * Private to the bundle (no {@code @Export}): a plugin imports the SPI and exports nothing.
 */
package io.kubelix.examples.admission;
