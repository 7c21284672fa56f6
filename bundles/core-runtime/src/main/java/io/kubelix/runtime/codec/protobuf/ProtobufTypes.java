package io.kubelix.runtime.codec.protobuf;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Admissionregistration;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Authentication;
import io.kubernetes.client.proto.V1Authorization;
import io.kubernetes.client.proto.V1Autoscaling;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Certificates;
import io.kubernetes.client.proto.V1Networking;
import io.kubernetes.client.proto.V1Policy;
import io.kubernetes.client.proto.V1Rbac;
import io.kubernetes.client.proto.V1Scheduling;
import io.kubernetes.client.proto.V1Storage;
import io.kubernetes.client.proto.V2beta2Autoscaling;
import io.kubelix.api.schema.GroupVersion;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The protobuf message of each built-in kind, from the descriptors generated from Kubernetes'
 * {@code generated.proto} files (the {@code io.kubernetes:client-java-proto} artifact). Kinds
 * are found by their proto package, {@code k8s.io.api.<group>.<version>}, where the group is the
 * first label of the API group ({@code rbac.authorization.k8s.io} → {@code rbac}) or {@code core}.
 * Only Kubernetes' own groups (one label, or under {@code k8s.io}) are looked up: a custom
 * resource's group always has a dot, so {@code apps.example.com} never finds apps' messages.
 * The descriptors are immutable data of the generated classes, so one table serves the bundle.
 */
final class ProtobufTypes {
    static final List<FileDescriptor> FILES = List.of(
            V1.getDescriptor(), V1Apps.getDescriptor(), V1Batch.getDescriptor(), V1Rbac.getDescriptor(),
            V1Networking.getDescriptor(), V1Policy.getDescriptor(), V1Storage.getDescriptor(),
            V1Scheduling.getDescriptor(), V1Autoscaling.getDescriptor(), V2beta2Autoscaling.getDescriptor(),
            V1Admissionregistration.getDescriptor(), V1Authentication.getDescriptor(),
            V1Authorization.getDescriptor(), V1Certificates.getDescriptor(), Meta.getDescriptor());
    private static final String META_PACKAGE = "k8s.io.apimachinery.pkg.apis.meta.v1";

    /**
     * The message fields that hold a Go struct embedded with {@code json:",inline"}: in JSON the
     * embedded struct's fields sit in the outer object (an ingress rule's {@code http}, a volume's
     * {@code configMap}, a key selector's {@code name}). Found by comparing the messages with the
     * Java client's models, whose fields are the JSON ones.
     */
    static final java.util.Set<String> INLINE_FIELDS = java.util.Set.of(
            "k8s.io.api.core.v1.Volume.volumeSource", "k8s.io.api.core.v1.PersistentVolumeSpec.persistentVolumeSource",
            "k8s.io.api.core.v1.Probe.handler", "k8s.io.api.core.v1.EphemeralContainer.ephemeralContainerCommon",
            "k8s.io.api.networking.v1.IngressRule.ingressRuleValue",
            "k8s.io.api.core.v1.ConfigMapEnvSource.localObjectReference",
            "k8s.io.api.core.v1.ConfigMapKeySelector.localObjectReference",
            "k8s.io.api.core.v1.ConfigMapProjection.localObjectReference",
            "k8s.io.api.core.v1.ConfigMapVolumeSource.localObjectReference",
            "k8s.io.api.core.v1.SecretEnvSource.localObjectReference",
            "k8s.io.api.core.v1.SecretKeySelector.localObjectReference",
            "k8s.io.api.core.v1.SecretProjection.localObjectReference",
            "k8s.io.api.admissionregistration.v1.RuleWithOperations.rule",
            "k8s.io.api.admissionregistration.v1.NamedRuleWithOperations.ruleWithOperations");

    /**
     * Fields named after their Go field rather than their JSON one ({@code APIGroup} → {@code aPIGroup}),
     * and the one JSON field that starts with a capital; the others that differ only start with a
     * capital ({@code Webhooks}).
     */
    private static final Map<String, String> JSON_NAMES = Map.of(
            "k8s.io.api.networking.v1.IngressClassParametersReference.aPIGroup", "apiGroup",
            "k8s.io.api.authentication.v1.BoundObjectReference.uID", "uid",
            "k8s.io.api.core.v1.DaemonEndpoint.Port", "Port");

    private static final Map<String, Descriptor> BY_FULL_NAME = new HashMap<>();

    static {
        for (FileDescriptor f : FILES) {
            for (Descriptor d : f.getMessageTypes()) {
                BY_FULL_NAME.put(d.getFullName(), d);
            }
        }
    }

    private ProtobufTypes() {
    }

    /** The message of {@code kind} at {@code apiVersion}, or null when it has no protobuf form here. */
    static Descriptor find(String apiVersion, String kind) {
        GroupVersion gv = GroupVersion.parse(apiVersion);
        String group = gv.group().isEmpty() ? "core" : gv.group().split("\\.")[0];
        Descriptor d = builtIn(gv) ? BY_FULL_NAME.get("k8s.io.api." + group + "." + gv.version() + "." + kind) : null;
        if (d == null) {
            // Options types (DeleteOptions, ...) are sent under any group version but live in meta/v1,
            // as do Status and PartialObjectMetadata, whose meta.k8s.io/v1beta1 form is the same message.
            d = BY_FULL_NAME.get(META_PACKAGE + "." + kind);
        }
        return d;
    }

    /** The message of a built-in kind served at {@code apiVersion}; null for a custom resource, whatever its kind's name. */
    static Descriptor findBuiltIn(String apiVersion, String kind) {
        return builtIn(GroupVersion.parse(apiVersion)) ? find(apiVersion, kind) : null;
    }

    private static boolean builtIn(GroupVersion gv) {
        String g = gv.group();
        return g.isEmpty() || !g.contains(".") || g.endsWith(".k8s.io");
    }

    /**
     * Whether the message wraps a Go string slice type ({@code ExtraValue}, {@code Verbs}): its only
     * field is {@code repeated string items}, and in JSON it is a plain array.
     */
    static boolean isStringList(Descriptor d) {
        if (d.getFields().size() != 1) {
            return false;
        }
        var f = d.getFields().get(0);
        return f.isRepeated() && f.getName().equals("items")
                && f.getJavaType() == com.google.protobuf.Descriptors.FieldDescriptor.JavaType.STRING;
    }

    /** The JSON name of a message field. */
    static String jsonName(com.google.protobuf.Descriptors.FieldDescriptor fd) {
        String name = fd.getName();
        String renamed = JSON_NAMES.get(fd.getFullName());
        if (renamed != null) {
            return renamed;
        }
        return Character.isUpperCase(name.charAt(0)) ? Character.toLowerCase(name.charAt(0)) + name.substring(1) : name;
    }

    /** A message of meta/v1 by its name ({@code ListMeta}, {@code WatchEvent}). */
    static Descriptor meta(String name) {
        return BY_FULL_NAME.get(META_PACKAGE + "." + name);
    }
}
