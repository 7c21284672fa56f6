/**
 * The shared informers (client-go's {@code tools/cache}): a reflector per resource listing and
 * watching it in process, an indexed cache, and the delivery of changes to handlers.
 */
package io.kubelix.runtime.controller.informer;
