package io.kubelix.api.registry;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * genericapiserver.APIGroupInfo: what a provider serves.
 *
 * @param groupName                      the API group, empty for the core group ({@code /api})
 * @param prioritizedVersions            versions, preferred first
 * @param versionedResourcesStorageMap   version, then resource (or {@code resource/subresource}), to its storage
 */
public record APIGroupInfo(String groupName, List<String> prioritizedVersions,
                           Map<String, Map<String, RESTStorage>> versionedResourcesStorageMap) {
    public APIGroupInfo {
        prioritizedVersions = List.copyOf(prioritizedVersions);
        Map<String, Map<String, RESTStorage>> copy = new LinkedHashMap<>();
        versionedResourcesStorageMap.forEach((v, m) -> copy.put(v, java.util.Collections.unmodifiableMap(new LinkedHashMap<>(m))));
        versionedResourcesStorageMap = java.util.Collections.unmodifiableMap(copy);
    }
}
