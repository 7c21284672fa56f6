package io.kubelix.runtime.plugins;

/**
 * One group/version/resource (or {@code resource/subresource}) as a RESTStorageProvider offers
 * it, and whether it is served or shadowed by a higher-ranked provider of the same GVR.
 *
 * @param group             the API group, empty for the core group
 * @param version           the version, such as {@code v1}
 * @param resource          the resource, such as {@code configmaps} or {@code widgets/status}
 * @param kind              the kind of its objects
 * @param namespaced        whether its objects live in namespaces
 * @param provider          the provider's name (its DS component name)
 * @param serviceId         the provider's {@code service.id}
 * @param ranking           the provider's {@code service.ranking}
 * @param shadowedBy        the {@code service.id} of the provider serving this GVR instead, or
 *                          -1 when this one serves it
 */
public record ProvidedResource(String group, String version, String resource, String kind, boolean namespaced,
                               String provider, long serviceId, int ranking, long shadowedBy) {

    public boolean serving() {
        return shadowedBy < 0;
    }

    /** {@code group/version/resource}, with {@code core} for the empty group, as logs print it. */
    public String gvr() {
        return (group.isEmpty() ? "core" : group) + "/" + version + "/" + resource;
    }
}
