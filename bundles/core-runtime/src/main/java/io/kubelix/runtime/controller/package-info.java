/**
 * The server's own control loops and what they are built on: the served resources as controllers
 * see them ({@link io.kubelix.runtime.controller.ServedResources}), informers
 * ({@code informer}) and work queues ({@code workqueue}).
 */
package io.kubelix.runtime.controller;
