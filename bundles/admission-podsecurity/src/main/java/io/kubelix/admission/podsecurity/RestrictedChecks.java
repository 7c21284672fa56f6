package io.kubelix.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.admission.podsecurity.Check.Versioned;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static io.kubelix.admission.podsecurity.PodSpecs.containers;
import static io.kubelix.admission.podsecurity.PodSpecs.has;
import static io.kubelix.admission.podsecurity.PodSpecs.joinQuote;
import static io.kubelix.admission.podsecurity.PodSpecs.name;
import static io.kubelix.admission.podsecurity.PodSpecs.pluralize;
import static io.kubelix.admission.podsecurity.PodSpecs.securityContext;
import static io.kubelix.admission.podsecurity.PodSpecs.userNamespace;
import static io.kubelix.admission.podsecurity.PodSpecs.windows;

/**
 * The restricted level's checks (kube's {@code policy/check_*.go} of level restricted), worded as
 * kube's: pod hardening best practice, on top of the baseline checks they do not override.
 */
final class RestrictedChecks {
    /** The volume sources restricted pods may use. */
    private static final List<String> ALLOWED_VOLUMES = List.of("configMap", "csi", "downwardAPI", "emptyDir",
            "ephemeral", "image", "persistentVolumeClaim", "projected", "secret");
    /** The restricted volume sources, in the order kube names the first one a volume has. */
    private static final List<String> RESTRICTED_VOLUMES = List.of("hostPath", "gcePersistentDisk",
            "awsElasticBlockStore", "gitRepo", "nfs", "iscsi", "glusterfs", "rbd", "flexVolume", "cinder", "cephfs",
            "flocker", "fc", "azureFile", "vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk",
            "portworxVolume", "scaleIO", "storageos");

    private RestrictedChecks() {
    }

    static List<Check> all() {
        List<String> capabilities = List.of(BaselineChecks.CAPABILITIES_BASELINE);
        List<String> seccomp = List.of(BaselineChecks.SECCOMP_BASELINE);
        return List.of(
                Check.restricted("restrictedVolumes", new Versioned(0, RestrictedChecks::restrictedVolumes,
                        List.of(BaselineChecks.HOST_PATH_VOLUMES))),
                Check.restricted("allowPrivilegeEscalation", new Versioned(8, RestrictedChecks::allowPrivilegeEscalation),
                        new Versioned(25, unlessWindows(RestrictedChecks::allowPrivilegeEscalation))),
                Check.restricted("runAsNonRoot", new Versioned(0, RestrictedChecks::runAsNonRoot),
                        new Versioned(35, unlessUserNamespace(RestrictedChecks::runAsNonRoot))),
                Check.restricted("runAsUser", new Versioned(23, RestrictedChecks::runAsUser),
                        new Versioned(35, unlessUserNamespace(RestrictedChecks::runAsUser))),
                Check.restricted("seccompProfile_restricted",
                        new Versioned(19, RestrictedChecks::seccompProfile, seccomp),
                        new Versioned(25, unlessWindows(RestrictedChecks::seccompProfile), seccomp)),
                Check.restricted("capabilities_restricted",
                        new Versioned(22, RestrictedChecks::capabilities, capabilities),
                        new Versioned(25, unlessWindows(RestrictedChecks::capabilities), capabilities)),
                Check.restricted("procMount_restricted",
                        new Versioned(35, BaselineChecks::procMount, List.of(BaselineChecks.PROC_MOUNT))));
    }

    /** From 1.25 on, a pod that says it runs on Windows passes checks of Linux-only fields. */
    private static Check.PodCheck unlessWindows(Check.PodCheck check) {
        return (m, s) -> windows(s) ? CheckResult.ALLOWED : check.check(m, s);
    }

    /** From 1.35 on, a pod in a user namespace ({@code hostUsers: false}) may run as root inside it. */
    private static Check.PodCheck unlessUserNamespace(Check.PodCheck check) {
        return (m, s) -> userNamespace(s) ? CheckResult.ALLOWED : check.check(m, s);
    }

    static CheckResult restrictedVolumes(JsonNode metadata, JsonNode spec) {
        List<String> bad = new ArrayList<>();
        Set<String> types = new TreeSet<>();
        for (JsonNode v : spec.path("volumes")) {
            if (ALLOWED_VOLUMES.stream().anyMatch(source -> has(v, source))) {
                continue;
            }
            bad.add(name(v));
            types.add(RESTRICTED_VOLUMES.stream().filter(source -> has(v, source)).findFirst().orElse("unknown"));
        }
        if (bad.isEmpty()) {
            return CheckResult.ALLOWED;
        }
        return CheckResult.forbidden("restricted volume types", pluralize("volume", "volumes", bad.size()) + " "
                + joinQuote(bad) + " " + pluralize("uses", "use", bad.size()) + " "
                + pluralize("restricted volume type", "restricted volume types", types.size()) + " " + joinQuote(types));
    }

    static CheckResult allowPrivilegeEscalation(JsonNode metadata, JsonNode spec) {
        List<String> bad = new ArrayList<>();
        for (JsonNode c : containers(spec)) {
            JsonNode allow = securityContext(c, "allowPrivilegeEscalation");
            if (allow == null || allow.asBoolean(true)) {
                bad.add(name(c));
            }
        }
        if (bad.isEmpty()) {
            return CheckResult.ALLOWED;
        }
        return CheckResult.forbidden("allowPrivilegeEscalation != false", pluralize("container", "containers", bad.size())
                + " " + joinQuote(bad) + " must set securityContext.allowPrivilegeEscalation=false");
    }

    static CheckResult runAsNonRoot(JsonNode metadata, JsonNode spec) {
        List<String> setters = new ArrayList<>();
        boolean podRunAsNonRoot = false;
        JsonNode pod = securityContext(spec, "runAsNonRoot");
        if (pod != null) {
            if (!pod.asBoolean()) {
                setters.add("pod");
            } else {
                podRunAsNonRoot = true;
            }
        }
        List<String> explicitlyBad = new ArrayList<>();
        List<String> implicitlyBad = new ArrayList<>();
        for (JsonNode c : containers(spec)) {
            JsonNode v = securityContext(c, "runAsNonRoot");
            if (v != null) {
                if (!v.asBoolean()) {
                    explicitlyBad.add(name(c));
                }
            } else if (!podRunAsNonRoot) {
                implicitlyBad.add(name(c));
            }
        }
        if (!explicitlyBad.isEmpty()) {
            setters.add(pluralize("container", "containers", explicitlyBad.size()) + " " + joinQuote(explicitlyBad));
        }
        if (!setters.isEmpty()) {
            return CheckResult.forbidden("runAsNonRoot != true",
                    String.join(" and ", setters) + " must not set securityContext.runAsNonRoot=false");
        }
        if (!implicitlyBad.isEmpty()) {
            return CheckResult.forbidden("runAsNonRoot != true", "pod or "
                    + pluralize("container", "containers", implicitlyBad.size()) + " " + joinQuote(implicitlyBad)
                    + " must set securityContext.runAsNonRoot=true");
        }
        return CheckResult.ALLOWED;
    }

    static CheckResult runAsUser(JsonNode metadata, JsonNode spec) {
        List<String> setters = new ArrayList<>();
        if (isRoot(securityContext(spec, "runAsUser"))) {
            setters.add("pod");
        }
        List<String> bad = new ArrayList<>();
        for (JsonNode c : containers(spec)) {
            if (isRoot(securityContext(c, "runAsUser"))) {
                bad.add(name(c));
            }
        }
        if (!bad.isEmpty()) {
            setters.add(pluralize("container", "containers", bad.size()) + " " + joinQuote(bad));
        }
        if (setters.isEmpty()) {
            return CheckResult.ALLOWED;
        }
        return CheckResult.forbidden("runAsUser=0", String.join(" and ", setters) + " must not set runAsUser=0");
    }

    private static boolean isRoot(JsonNode uid) {
        return uid != null && uid.isNumber() && uid.asLong() == 0;
    }

    static CheckResult seccompProfile(JsonNode metadata, JsonNode spec) {
        List<String> setters = new ArrayList<>();
        Set<String> badValues = new TreeSet<>();
        boolean podSet = false;
        JsonNode podProfile = securityContext(spec, "seccompProfile");
        if (podProfile != null) {
            if (!BaselineChecks.validSeccompType(podProfile.path("type").asText(""))) {
                setters.add("pod");
                badValues.add(podProfile.path("type").asText(""));
            } else {
                podSet = true;
            }
        }
        List<String> explicitlyBad = new ArrayList<>();
        List<String> implicitlyBad = new ArrayList<>();
        for (JsonNode c : containers(spec)) {
            JsonNode profile = securityContext(c, "seccompProfile");
            if (profile != null) {
                if (!BaselineChecks.validSeccompType(profile.path("type").asText(""))) {
                    explicitlyBad.add(name(c));
                    badValues.add(profile.path("type").asText(""));
                }
            } else if (!podSet) {
                implicitlyBad.add(name(c));
            }
        }
        if (!explicitlyBad.isEmpty()) {
            setters.add(pluralize("container", "containers", explicitlyBad.size()) + " " + joinQuote(explicitlyBad));
        }
        if (!setters.isEmpty()) {
            return CheckResult.forbidden("seccompProfile", String.join(" and ", setters)
                    + " must not set securityContext.seccompProfile.type to " + joinQuote(badValues));
        }
        if (!implicitlyBad.isEmpty()) {
            return CheckResult.forbidden("seccompProfile", "pod or "
                    + pluralize("container", "containers", implicitlyBad.size()) + " " + joinQuote(implicitlyBad)
                    + " must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\"");
        }
        return CheckResult.ALLOWED;
    }

    static CheckResult capabilities(JsonNode metadata, JsonNode spec) {
        List<String> missingDropAll = new ArrayList<>();
        List<String> adding = new ArrayList<>();
        Set<String> forbidden = new TreeSet<>();
        for (JsonNode c : containers(spec)) {
            JsonNode caps = securityContext(c, "capabilities");
            if (caps == null) {
                missingDropAll.add(name(c));
                continue;
            }
            boolean droppedAll = false;
            for (JsonNode d : caps.path("drop")) {
                droppedAll |= "ALL".equals(d.asText());
            }
            if (!droppedAll) {
                missingDropAll.add(name(c));
            }
            boolean addedForbidden = false;
            for (JsonNode a : caps.path("add")) {
                if (!"NET_BIND_SERVICE".equals(a.asText())) {
                    addedForbidden = true;
                    forbidden.add(a.asText());
                }
            }
            if (addedForbidden) {
                adding.add(name(c));
            }
        }
        List<String> details = new ArrayList<>();
        if (!missingDropAll.isEmpty()) {
            details.add(pluralize("container", "containers", missingDropAll.size()) + " " + joinQuote(missingDropAll)
                    + " must set securityContext.capabilities.drop=[\"ALL\"]");
        }
        if (!adding.isEmpty()) {
            details.add(pluralize("container", "containers", adding.size()) + " " + joinQuote(adding)
                    + " must not include " + joinQuote(forbidden) + " in securityContext.capabilities.add");
        }
        return details.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("unrestricted capabilities", String.join("; ", details));
    }
}
