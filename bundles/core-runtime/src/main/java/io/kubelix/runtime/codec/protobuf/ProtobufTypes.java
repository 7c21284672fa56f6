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
 */
final class ProtobufTypes {
    private static final List<FileDescriptor> FILES = List.of(
            V1.getDescriptor(), V1Apps.getDescriptor(), V1Batch.getDescriptor(), V1Rbac.getDescriptor(),
            V1Networking.getDescriptor(), V1Policy.getDescriptor(), V1Storage.getDescriptor(),
            V1Scheduling.getDescriptor(), V1Autoscaling.getDescriptor(), V2beta2Autoscaling.getDescriptor(),
            V1Admissionregistration.getDescriptor(), V1Authentication.getDescriptor(),
            V1Authorization.getDescriptor(), V1Certificates.getDescriptor(), Meta.getDescriptor());
    private static final String META_PACKAGE = "k8s.io.apimachinery.pkg.apis.meta.v1";

    private final Map<String, Descriptor> byFullName = new HashMap<>();

    ProtobufTypes() {
        for (FileDescriptor f : FILES) {
            for (Descriptor d : f.getMessageTypes()) {
                byFullName.put(d.getFullName(), d);
            }
        }
    }

    /** The message of {@code kind} at {@code apiVersion}, or null when it has no protobuf form here. */
    Descriptor find(String apiVersion, String kind) {
        GroupVersion gv = GroupVersion.parse(apiVersion);
        String group = gv.group().isEmpty() ? "core" : gv.group().split("\\.")[0];
        Descriptor d = byFullName.get("k8s.io.api." + group + "." + gv.version() + "." + kind);
        if (d == null) {
            // Options types (DeleteOptions, ...) are sent under any group version but live in meta/v1.
            d = byFullName.get(META_PACKAGE + "." + kind);
        }
        return d;
    }
}
