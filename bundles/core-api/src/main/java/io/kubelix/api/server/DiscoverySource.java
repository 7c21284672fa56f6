package io.kubelix.api.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.osgi.annotation.versioning.ConsumerType;

import java.util.List;

/**
 * API groups a link of the server chain serves itself rather than through the core API's route
 * table (the aggregator's remote APIServices), for the server's discovery documents: {@code /apis}
 * lists them with the core API's groups, the aggregated discovery (apidiscovery.k8s.io) lists
 * their resources, and {@code /openapi/v3} (and the {@code /openapi/v2} made from it) their
 * OpenAPI documents. A whiteboard service: its groups leave discovery when it goes.
 */
@ConsumerType
public interface DiscoverySource {

    /** The groups to list now, in the order to list them; called for every discovery request. */
    List<Group> discoveryGroups();

    /**
     * The discovery priorities of the group versions the source knows, the core API's included
     * (kube's aggregator has an APIService for each); called for every discovery request. With
     * them discovery lists the groups, the core API's and the sources' together, as kube's
     * aggregator sorts APIServices: by {@code groupPriorityMinimum}, highest first (a group placed
     * by its highest), then by APIService name ({@code <version>.<group>}); and each group's
     * versions by {@code versionPriority}, highest first, then as kube orders versions. A group
     * none gives a priority for comes after those with one, in its place otherwise (the core
     * API's first). None by default.
     *
     * @since 2.1
     */
    default List<Priority> discoveryPriorities() {
        return List.of();
    }

    /**
     * A group: its name and versions, preferred first.
     *
     * @param name     the group name, never empty
     * @param versions its versions, preferred first; a group without one is not listed
     */
    record Group(String name, List<Version> versions) {
        public Group {
            versions = List.copyOf(versions);
        }
    }

    /**
     * A version of a group.
     *
     * @param version      the version, such as {@code v1beta1}
     * @param resourceList the group version's {@code APIResourceList}, as its server answers
     *                     {@code /apis/<group>/<version>}
     * @param stale        true when the server could not be asked lately: {@code /apis} leaves the
     *                     version out, the aggregated discovery keeps its last resources with
     *                     {@code freshness: Stale}
     * @param openAPIV3    the group version's OpenAPI v3 document, as its server answers
     *                     {@code /openapi/v3/apis/<group>/<version>}, or null when it has none
     */
    record Version(String version, ObjectNode resourceList, boolean stale, ObjectNode openAPIV3) {
    }

    /**
     * The priorities of a group version, as its APIService says them.
     *
     * @param group                the group, empty for the core group
     * @param version              the version
     * @param groupPriorityMinimum the group's place: higher is listed first
     * @param versionPriority      the version's place within its group: higher is listed first
     * @since 2.1
     */
    record Priority(String group, String version, int groupPriorityMinimum, int versionPriority) {
    }
}
