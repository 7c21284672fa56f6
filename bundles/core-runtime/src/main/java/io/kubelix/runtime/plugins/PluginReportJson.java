package io.kubelix.runtime.plugins;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.runtime.plugins.PluginReport.Conflict;
import io.kubelix.runtime.plugins.PluginReport.Plugin;
import io.kubelix.runtime.plugins.PluginReport.Provider;
import io.kubelix.runtime.plugins.PluginReport.Service;
import io.kubelix.runtime.plugins.PluginReport.Type;

/**
 * The JSON document of {@code /kubelix/plugins}. Like {@code /version} it is a plain document of
 * a non-resource endpoint, not an API object, so it carries no {@code kind}; members are
 * camelCase as in Kubernetes objects, and every list is present (empty when there is nothing).
 * <pre>
 * {"plugins": [{"bundleId", "symbolicName", "version", "state", "location", "unresolved": [requirement],
 *               "contributes": {"apiResources": [{"group", "version", "resource", "kind", "namespaced",
 *                                                 "provider", "ranking", "serving", "shadowedBy"?}],
 *                               "restStorageProviders" | "authenticators" | "authorizers" |
 *                               "admissionPlugins" | "storageBackends" | "delegationTargets" |
 *                               "healthChecks": [{"name", "ranking", "serviceId", "type"? (admission)}]}}],
 *  "conflicts": [{"group", "version", "resource", "servedBy": provider, "shadowed": [provider]}]}
 * provider: {"bundle", "bundleId", "provider", "ranking", "serviceId"}
 * </pre>
 */
public final class PluginReportJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private PluginReportJson() {
    }

    public static ObjectNode toJson(PluginReport report) {
        ObjectNode doc = NODES.objectNode();
        ArrayNode plugins = doc.putArray("plugins");
        for (Plugin p : report.plugins()) {
            plugins.add(plugin(p));
        }
        ArrayNode conflicts = doc.putArray("conflicts");
        for (Conflict c : report.conflicts()) {
            ObjectNode o = conflicts.addObject();
            o.put("group", c.group());
            o.put("version", c.version());
            o.put("resource", c.resource());
            if (c.servedBy() != null) {
                o.set("servedBy", provider(c.servedBy()));
            } else {
                o.putNull("servedBy");
            }
            ArrayNode shadowed = o.putArray("shadowed");
            c.shadowed().forEach(s -> shadowed.add(provider(s)));
        }
        return doc;
    }

    private static ObjectNode plugin(Plugin p) {
        ObjectNode o = NODES.objectNode();
        o.put("bundleId", p.bundle().id());
        o.put("symbolicName", p.bundle().symbolicName());
        o.put("version", p.bundle().version());
        o.put("state", p.bundle().state());
        o.put("location", p.bundle().location());
        ArrayNode unresolved = o.putArray("unresolved");
        p.bundle().unresolved().forEach(unresolved::add);
        ObjectNode contributes = o.putObject("contributes");
        ArrayNode resources = contributes.putArray("apiResources");
        for (ProvidedResource r : p.apiResources()) {
            ObjectNode ro = resources.addObject();
            ro.put("group", r.group());
            ro.put("version", r.version());
            ro.put("resource", r.resource());
            ro.put("kind", r.kind());
            ro.put("namespaced", r.namespaced());
            ro.put("provider", r.provider());
            ro.put("ranking", r.ranking());
            ro.put("serving", r.serving());
            if (!r.serving()) {
                ro.put("shadowedBy", r.shadowedBy());
            }
        }
        for (Type t : Type.values()) {
            if (!contributes.has(t.member())) {
                contributes.putArray(t.member());
            }
        }
        for (Service s : p.services()) {
            ObjectNode so = ((ArrayNode) contributes.get(s.type().member())).addObject();
            so.put("name", s.name());
            if (s.type() == Type.MUTATING_ADMISSION || s.type() == Type.VALIDATING_ADMISSION) {
                so.put("type", s.type() == Type.MUTATING_ADMISSION ? "mutating" : "validating");
            }
            so.put("ranking", s.ranking());
            so.put("serviceId", s.serviceId());
        }
        return o;
    }

    private static ObjectNode provider(Provider p) {
        ObjectNode o = NODES.objectNode();
        o.put("bundle", p.symbolicName());
        o.put("bundleId", p.bundleId());
        o.put("provider", p.provider());
        o.put("ranking", p.ranking());
        o.put("serviceId", p.serviceId());
        return o;
    }
}
