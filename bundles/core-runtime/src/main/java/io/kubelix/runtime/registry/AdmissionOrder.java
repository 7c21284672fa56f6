package io.kubelix.runtime.registry;

import io.kubelix.api.admission.AdmissionPlugin;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

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

    /** Where plugins kube does not know go: just before the admission policies and webhooks. */
    private static final int OWN_PLUGINS = KUBE_ORDER.indexOf("MutatingAdmissionPolicy");

    private AdmissionOrder() {
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
