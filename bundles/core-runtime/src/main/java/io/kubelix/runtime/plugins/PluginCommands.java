package io.kubelix.runtime.plugins;

import io.kubelix.runtime.plugins.PluginReport.Conflict;
import io.kubelix.runtime.plugins.PluginReport.Plugin;
import io.kubelix.runtime.plugins.PluginReport.Provider;
import io.kubelix.runtime.plugins.PluginReport.Served;
import io.kubelix.runtime.plugins.PluginReport.Service;
import io.kubelix.runtime.plugins.PluginReport.Type;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gogo shell commands for operators: {@code kubelix:plugins} (the {@code /kubelix/plugins} data
 * as tables) and {@code kubelix:groups} (every served group/version/resource with the bundle
 * serving it). Gogo finds them by the {@code osgi.command.*} service properties and prints what
 * they return, so nothing here writes to a stream or needs Gogo's API.
 */
@Component(service = PluginCommands.class, property = {
        "osgi.command.scope=kubelix",
        "osgi.command.function=plugins",
        "osgi.command.function=groups"})
public final class PluginCommands {
    private final PluginInventory inventory;

    @Activate
    public PluginCommands(@Reference PluginInventory inventory) {
        this.inventory = inventory;
    }

    /** {@code kubelix:plugins}: plugin bundles, what each contributes, and shadowed resources. */
    public String plugins() {
        return plugins(inventory.report());
    }

    /** {@code kubelix:groups}: the served group/version/resources and their bundles. */
    public String groups() {
        return groups(inventory.report());
    }

    static String plugins(PluginReport report) {
        TextTable table = new TextTable("ID", "BUNDLE", "VERSION", "STATE", "CONTRIBUTES", "LOCATION");
        for (Plugin p : report.plugins()) {
            table.row(p.bundle().id(), p.bundle().symbolicName(), p.bundle().version(), p.bundle().state(),
                    contributes(p), p.bundle().location());
        }
        StringBuilder b = new StringBuilder(table.toString());
        b.append('\n');
        if (report.conflicts().isEmpty()) {
            b.append("No conflicts: no group/version/resource is offered by more than one provider.\n");
        } else {
            TextTable conflicts = new TextTable("SHADOWED RESOURCE", "SERVED BY", "SHADOWED");
            for (Conflict c : report.conflicts()) {
                List<String> losers = c.shadowed().stream().map(PluginCommands::provider).toList();
                conflicts.row(gvr(c.group(), c.version(), c.resource()),
                        c.servedBy() == null ? "" : provider(c.servedBy()), String.join(", ", losers));
            }
            b.append(conflicts);
        }
        return b.toString();
    }

    static String groups(PluginReport report) {
        TextTable table = new TextTable("GROUP", "VERSION", "RESOURCE", "KIND", "NAMESPACED", "BUNDLE", "PROVIDER");
        for (Served s : report.served()) {
            ProvidedResource r = s.resource();
            table.row(r.group().isEmpty() ? "core" : r.group(), r.version(), r.resource(), r.kind(), r.namespaced(),
                    s.bundle().symbolicName() + " [" + s.bundle().id() + "]", r.provider());
        }
        return table.toString();
    }

    /** A one-line summary: {@code core/v1: configmaps, secrets; validating admission NamespaceLifecycle}. */
    private static String contributes(Plugin p) {
        List<String> parts = new ArrayList<>();
        Map<String, List<String>> byGroupVersion = new LinkedHashMap<>();
        p.apiResources().forEach(r -> byGroupVersion
                .computeIfAbsent((r.group().isEmpty() ? "core" : r.group()) + "/" + r.version(), k -> new ArrayList<>())
                .add(r.serving() ? r.resource() : r.resource() + " (shadowed)"));
        byGroupVersion.forEach((gv, resources) -> parts.add(gv + ": " + String.join(", ", resources)));
        for (Type t : Type.values()) {
            if (t == Type.REST_STORAGE_PROVIDER) {
                continue; // shown through its resources
            }
            List<Service> services = p.services(t);
            if (!services.isEmpty()) {
                parts.add(label(t) + " " + String.join(", ", services.stream().map(Service::name).toList()));
            }
        }
        if (p.apiResources().isEmpty() && !p.services(Type.REST_STORAGE_PROVIDER).isEmpty()) {
            parts.add("RESTStorageProvider " + String.join(", ",
                    p.services(Type.REST_STORAGE_PROVIDER).stream().map(Service::name).toList()) + " (serves nothing)");
        }
        if (!p.bundle().unresolved().isEmpty()) {
            parts.add("unresolved: " + String.join(", ", p.bundle().unresolved()));
        }
        return parts.isEmpty() ? "-" : String.join("; ", parts);
    }

    private static String label(Type t) {
        return switch (t) {
            case AUTHENTICATOR -> "authenticator";
            case AUTHORIZER -> "authorizer";
            case MUTATING_ADMISSION -> "mutating admission";
            case VALIDATING_ADMISSION -> "validating admission";
            case STORAGE_BACKEND -> "storage backend";
            case DELEGATION_TARGET -> "delegation target";
            case HEALTH_CHECK -> "health check";
            case REST_STORAGE_PROVIDER -> "RESTStorageProvider";
        };
    }

    private static String provider(Provider p) {
        return p.symbolicName() + " [" + p.bundleId() + "] ranking " + p.ranking();
    }

    private static String gvr(String group, String version, String resource) {
        return (group.isEmpty() ? "core" : group) + "/" + version + "/" + resource;
    }
}
