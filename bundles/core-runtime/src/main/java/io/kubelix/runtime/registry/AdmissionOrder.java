package io.kubelix.runtime.registry;

import io.kubelix.api.admission.AdmissionPlugin;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The order kube-apiserver runs its admission plugins in (kube's {@code AllOrderedPlugins}),
 * whatever order they are enabled or installed in: NamespaceLifecycle first, then the plugins
 * that default and limit pods, then admission policies and webhooks, which so see what the
 * in-process plugins made of the object, and ResourceQuota last. A plugin kube does not know
 * (a plugin of one's own) runs after kube's in-process plugins and before the policies and
 * webhooks; plugins of the same place keep their {@code service.ranking} order.
 */
final class AdmissionOrder {
    static final List<String> KUBE_ORDER = List.of(
            "AlwaysAdmit", "NamespaceAutoProvision", "NamespaceLifecycle", "NamespaceExists",
            "LimitPodHardAntiAffinityTopology", "LimitRanger", "ServiceAccount", "NodeRestriction",
            "TaintNodesByCondition", "AlwaysPullImages", "ImagePolicyWebhook", "PodSecurity", "PodNodeSelector",
            "Priority", "DefaultTolerationSeconds", "PodTolerationRestriction", "EventRateLimit",
            "ExtendedResourceToleration", "DefaultStorageClass", "StorageObjectInUseProtection",
            "OwnerReferencesPermissionEnforcement", "PersistentVolumeClaimResize", "RuntimeClass",
            "CertificateApproval", "CertificateSigning", "ClusterTrustBundleAttest", "CertificateSubjectRestriction",
            "DefaultIngressClass", "PodTopologyLabels", "denyserviceexternalips",
            "MutatingAdmissionPolicy", "MutatingAdmissionWebhook", "ValidatingAdmissionPolicy",
            "ValidatingAdmissionWebhook", "ResourceQuota", "AlwaysDeny");

    /** kube's {@code DefaultOffAdmissionPlugins}: those {@code --enable-admission-plugins} must name to run. */
    static final Set<String> DEFAULT_OFF = Set.of("AlwaysAdmit", "NamespaceAutoProvision", "NamespaceExists",
            "LimitPodHardAntiAffinityTopology", "NodeRestriction", "AlwaysPullImages", "ImagePolicyWebhook",
            "PodNodeSelector", "PodTolerationRestriction", "EventRateLimit", "ExtendedResourceToleration",
            "OwnerReferencesPermissionEnforcement", "denyserviceexternalips", "AlwaysDeny");

    /** Where plugins kube does not know go: just before the admission policies and webhooks. */
    private static final int OWN_PLUGINS = KUBE_ORDER.indexOf("MutatingAdmissionPolicy");

    private AdmissionOrder() {
    }

    /**
     * Which installed plugins run, as kube-apiserver's {@code --enable-admission-plugins} and
     * {@code --disable-admission-plugins} (comma-separated) say: kube's plugins that are on by default
     * unless disabled, the others when enabled. A plugin of one's own, whose name kube does not know,
     * runs when installed.
     *
     * @throws IllegalArgumentException with kube's message for a name kube does not know, or one
     *                                  both enabled and disabled
     */
    static Predicate<String> enabled(String enable, String disable) {
        Set<String> on = names(enable);
        Set<String> off = names(disable);
        List<String> errors = new ArrayList<>();
        on.stream().filter(n -> !KUBE_ORDER.contains(n)).forEach(n ->
                errors.add("enable-admission-plugins plugin \"" + n + "\" is unknown"));
        off.stream().filter(n -> !KUBE_ORDER.contains(n)).forEach(n ->
                errors.add("disable-admission-plugins plugin \"" + n + "\" is unknown"));
        Set<String> both = new TreeSet<>(on);
        both.retainAll(off);
        if (!both.isEmpty()) {
            errors.add("[" + String.join(" ", both) + "] in enable-admission-plugins and disable-admission-plugins overlapped");
        }
        if (!errors.isEmpty()) {
            throw new IllegalArgumentException(String.join(", ", errors));
        }
        return name -> !KUBE_ORDER.contains(name) || on.contains(name) || !DEFAULT_OFF.contains(name) && !off.contains(name);
    }

    private static Set<String> names(String list) {
        Set<String> names = new LinkedHashSet<>();
        for (String n : list == null ? new String[0] : list.split(",")) {
            if (!n.isBlank()) {
                names.add(n.trim());
            }
        }
        return names;
    }

    /** {@code plugins} (in ranking order) in kube's order; the sort is stable, so ranking breaks ties. */
    static <T extends AdmissionPlugin> List<T> sorted(List<T> plugins) {
        List<T> sorted = new ArrayList<>(plugins);
        sorted.sort(Comparator.comparingDouble(AdmissionOrder::place));
        return List.copyOf(sorted);
    }

    private static double place(AdmissionPlugin plugin) {
        int i = KUBE_ORDER.indexOf(plugin.name());
        return i >= 0 ? i : OWN_PLUGINS - 0.5;
    }
}
