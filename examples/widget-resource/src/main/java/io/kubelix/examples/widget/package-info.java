/**
 * An example resource plugin: {@code widgets.sample.kubelix.io/v1}, kind {@code Widget}, served
 * by Kubelix's generic Store. Private to the bundle (no {@code @Export}): a plugin imports the
 * SPI and exports nothing, so updating it refreshes no other bundle.
 */
package io.kubelix.examples.widget;
