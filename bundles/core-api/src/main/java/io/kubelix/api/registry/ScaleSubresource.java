package io.kubelix.api.registry;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where a resource keeps what its {@code <resource>/scale} subresource reads and writes, as JSON
 * paths of the form {@code .spec.replicas} (the same form as a CustomResourceDefinition's
 * {@code subresources.scale}).
 *
 * @param specReplicasPath   the desired replicas, such as {@code .spec.replicas}; a Scale's
 *                           {@code spec.replicas} is written here
 * @param statusReplicasPath the observed replicas, such as {@code .status.replicas}; missing reads as 0
 * @param labelSelectorPath  the selector reported as {@code status.selector}, or null for none: a
 *                           metav1.LabelSelector object (a deployment's {@code .spec.selector}) is
 *                           rendered as a selector string, so is a map of labels (a replication
 *                           controller's {@code .spec.selector}, as {@code a=b,c=d}), and a string (a
 *                           custom resource's {@code .status.selector}) is reported as it is
 */
public record ScaleSubresource(String specReplicasPath, String statusReplicasPath, String labelSelectorPath) {
    private static final Pattern PATH = Pattern.compile("(\\.[A-Za-z_][A-Za-z0-9_]*)+");

    public ScaleSubresource {
        check("specReplicasPath", Objects.requireNonNull(specReplicasPath, "specReplicasPath"));
        check("statusReplicasPath", Objects.requireNonNull(statusReplicasPath, "statusReplicasPath"));
        if (labelSelectorPath != null) {
            check("labelSelectorPath", labelSelectorPath);
        }
    }

    /** kube's ScaleREST of deployments, replicasets and statefulsets. */
    public static ScaleSubresource replicasAndSpecSelector() {
        return new ScaleSubresource(".spec.replicas", ".status.replicas", ".spec.selector");
    }

    private static void check(String name, String path) {
        if (!PATH.matcher(path).matches()) {
            throw new IllegalArgumentException(name + " must be a path of fields such as .spec.replicas: " + path);
        }
    }
}
