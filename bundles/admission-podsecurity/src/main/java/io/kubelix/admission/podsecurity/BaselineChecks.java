package io.kubelix.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.admission.podsecurity.Check.Versioned;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.kubelix.admission.podsecurity.PodSpecs.containers;
import static io.kubelix.admission.podsecurity.PodSpecs.goQuote;
import static io.kubelix.admission.podsecurity.PodSpecs.has;
import static io.kubelix.admission.podsecurity.PodSpecs.isTrue;
import static io.kubelix.admission.podsecurity.PodSpecs.joinQuote;
import static io.kubelix.admission.podsecurity.PodSpecs.name;
import static io.kubelix.admission.podsecurity.PodSpecs.pluralize;
import static io.kubelix.admission.podsecurity.PodSpecs.securityContext;

/**
 * The baseline level's checks (kube's {@code policy/check_*.go} of level baseline), each with its
 * revisions, reasons and details worded as kube's: they prevent known privilege escalations and
 * apply to baseline and restricted namespaces.
 */
final class BaselineChecks {
    static final String CAPABILITIES_BASELINE = "capabilities_baseline";
    static final String HOST_PATH_VOLUMES = "hostPathVolumes";
    static final String PROC_MOUNT = "procMount";
    static final String SECCOMP_BASELINE = "seccompProfile_baseline";

    private static final Set<String> DEFAULT_CAPABILITIES = Set.of("AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER",
            "FSETID", "KILL", "MKNOD", "NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT");
    private static final Set<String> SELINUX_TYPES_1_0 = Set.of("", "container_t", "container_init_t",
            "container_kvm_t");
    private static final Set<String> SELINUX_TYPES_1_31 = Set.of("", "container_t", "container_init_t",
            "container_kvm_t", "container_engine_t");
    private static final Set<String> SYSCTLS_1_0 = Set.of("kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range",
            "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range", "net.ipv4.ip_unprivileged_port_start");
    private static final Set<String> SYSCTLS_1_27 = union(SYSCTLS_1_0, "net.ipv4.ip_local_reserved_ports");
    private static final Set<String> SYSCTLS_1_29 = union(SYSCTLS_1_27, "net.ipv4.tcp_keepalive_time",
            "net.ipv4.tcp_fin_timeout", "net.ipv4.tcp_keepalive_intvl", "net.ipv4.tcp_keepalive_probes");
    private static final Set<String> SYSCTLS_1_32 = union(SYSCTLS_1_29, "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem");
    private static final Set<String> SYSCTLS_1_37 = union(SYSCTLS_1_32, "net.ipv4.tcp_slow_start_after_idle",
            "net.ipv4.tcp_notsent_lowat");
    private static final String SECCOMP_POD_ANNOTATION = "seccomp.security.alpha.kubernetes.io/pod";
    private static final String SECCOMP_CONTAINER_ANNOTATION = "container.seccomp.security.alpha.kubernetes.io/";
    private static final String APPARMOR_ANNOTATION = "container.apparmor.security.beta.kubernetes.io/";

    private BaselineChecks() {
    }

    static List<Check> all() {
        return List.of(
                Check.baseline("windowsHostProcess", new Versioned(0, BaselineChecks::windowsHostProcess)),
                Check.baseline("hostNamespaces", new Versioned(0, BaselineChecks::hostNamespaces)),
                Check.baseline("privileged", new Versioned(0, BaselineChecks::privileged)),
                Check.baseline(CAPABILITIES_BASELINE, new Versioned(0, BaselineChecks::capabilities)),
                Check.baseline(HOST_PATH_VOLUMES, new Versioned(0, BaselineChecks::hostPathVolumes)),
                Check.baseline("hostPorts", new Versioned(0, BaselineChecks::hostPorts)),
                Check.baseline("hostProbesAndHostLifecycle", new Versioned(34, BaselineChecks::hostProbesAndLifecycle)),
                Check.baseline("appArmorProfile", new Versioned(0, BaselineChecks::appArmorProfile)),
                Check.baseline("seLinuxOptions", new Versioned(0, (m, s) -> seLinuxOptions(s, SELINUX_TYPES_1_0)),
                        new Versioned(31, (m, s) -> seLinuxOptions(s, SELINUX_TYPES_1_31))),
                Check.baseline(PROC_MOUNT, new Versioned(0, BaselineChecks::procMount),
                        new Versioned(35, (m, s) -> PodSpecs.userNamespace(s) ? CheckResult.ALLOWED : procMount(m, s))),
                Check.baseline(SECCOMP_BASELINE, new Versioned(0, BaselineChecks::seccompAnnotations),
                        new Versioned(19, BaselineChecks::seccompProfile)),
                Check.baseline("sysctls", new Versioned(0, (m, s) -> sysctls(s, SYSCTLS_1_0)),
                        new Versioned(27, (m, s) -> sysctls(s, SYSCTLS_1_27)),
                        new Versioned(29, (m, s) -> sysctls(s, SYSCTLS_1_29)),
                        new Versioned(32, (m, s) -> sysctls(s, SYSCTLS_1_32)),
                        new Versioned(37, (m, s) -> sysctls(s, SYSCTLS_1_37))));
    }

    static CheckResult windowsHostProcess(JsonNode metadata, JsonNode spec) {
        List<String> bad = new ArrayList<>();
        for (JsonNode c : containers(spec)) {
            if (isTrue(c.path("securityContext").path("windowsOptions").path("hostProcess"))) {
                bad.add(name(c));
            }
        }
        List<String> setters = new ArrayList<>();
        if (isTrue(spec.path("securityContext").path("windowsOptions").path("hostProcess"))) {
            setters.add("pod");
        }
        if (!bad.isEmpty()) {
            setters.add(pluralize("container", "containers", bad.size()) + " " + joinQuote(bad));
        }
        if (setters.isEmpty()) {
            return CheckResult.ALLOWED;
        }
        return CheckResult.forbidden("hostProcess",
                String.join(" and ", setters) + " must not set securityContext.windowsOptions.hostProcess=true");
    }

    static CheckResult hostNamespaces(JsonNode metadata, JsonNode spec) {
        List<String> host = new ArrayList<>();
        for (String field : new String[]{"hostNetwork", "hostPID", "hostIPC"}) {
            if (isTrue(spec.path(field))) {
                host.add(field + "=true");
            }
        }
        return host.isEmpty() ? CheckResult.ALLOWED : CheckResult.forbidden("host namespaces", String.join(", ", host));
    }

    static CheckResult privileged(JsonNode metadata, JsonNode spec) {
        List<String> bad = new ArrayList<>();
        for (JsonNode c : containers(spec)) {
            if (isTrue(securityContext(c, "privileged"))) {
                bad.add(name(c));
            }
        }
        if (bad.isEmpty()) {
            return CheckResult.ALLOWED;
        }
        return CheckResult.forbidden("privileged", pluralize("container", "containers", bad.size()) + " "
                + joinQuote(bad) + " must not set securityContext.privileged=true");
    }

    static CheckResult capabilities(JsonNode metadata, JsonNode spec) {
        List<String> bad = new ArrayList<>();
        Set<String> nonDefault = new TreeSet<>();
        for (JsonNode c : containers(spec)) {
            boolean valid = true;
            for (JsonNode cap : c.path("securityContext").path("capabilities").path("add")) {
                if (!DEFAULT_CAPABILITIES.contains(cap.asText())) {
                    valid = false;
                    nonDefault.add(cap.asText());
                }
            }
            if (!valid) {
                bad.add(name(c));
            }
        }
        if (bad.isEmpty()) {
            return CheckResult.ALLOWED;
        }
        return CheckResult.forbidden("non-default capabilities", pluralize("container", "containers", bad.size()) + " "
                + joinQuote(bad) + " must not include " + joinQuote(nonDefault) + " in securityContext.capabilities.add");
    }

    static CheckResult hostPathVolumes(JsonNode metadata, JsonNode spec) {
        List<String> host = new ArrayList<>();
        for (JsonNode v : spec.path("volumes")) {
            if (has(v, "hostPath")) {
                host.add(name(v));
            }
        }
        if (host.isEmpty()) {
            return CheckResult.ALLOWED;
        }
        return CheckResult.forbidden("hostPath volumes", pluralize("volume", "volumes", host.size()) + " "
                + joinQuote(host));
    }

    static CheckResult hostPorts(JsonNode metadata, JsonNode spec) {
        List<String> bad = new ArrayList<>();
        Set<String> ports = new TreeSet<>();
        for (JsonNode c : containers(spec)) {
            boolean valid = true;
            for (JsonNode p : c.path("ports")) {
                int hostPort = p.path("hostPort").asInt(0);
                if (hostPort != 0) {
                    valid = false;
                    ports.add(Integer.toString(hostPort));
                }
            }
            if (!valid) {
                bad.add(name(c));
            }
        }
        if (bad.isEmpty()) {
            return CheckResult.ALLOWED;
        }
        return CheckResult.forbidden("hostPort", pluralize("container", "containers", bad.size()) + " "
                + joinQuote(bad) + " " + pluralize("uses", "use", bad.size()) + " "
                + pluralize("hostPort", "hostPorts", ports.size()) + " " + String.join(", ", ports));
    }

    static CheckResult hostProbesAndLifecycle(JsonNode metadata, JsonNode spec) {
        Set<String> bad = new TreeSet<>();
        Set<String> hosts = new TreeSet<>();
        for (JsonNode c : containers(spec)) {
            List<String> found = new ArrayList<>();
            for (String probe : new String[]{"livenessProbe", "readinessProbe", "startupProbe"}) {
                handlerHosts(c.path(probe), found);
            }
            handlerHosts(c.path("lifecycle").path("postStart"), found);
            handlerHosts(c.path("lifecycle").path("preStop"), found);
            if (!found.isEmpty()) {
                bad.add(name(c));
                hosts.addAll(found);
            }
        }
        if (bad.isEmpty()) {
            return CheckResult.ALLOWED;
        }
        return CheckResult.forbidden("probe or lifecycle host", pluralize("container", "containers", bad.size()) + " "
                + joinQuote(bad) + " " + pluralize("uses", "use", bad.size()) + " "
                + pluralize("probe or lifecycle host", "probe or lifecycle hosts", hosts.size()) + " "
                + joinQuote(hosts));
    }

    private static void handlerHosts(JsonNode handler, List<String> into) {
        for (String action : new String[]{"httpGet", "tcpSocket"}) {
            String host = handler.path(action).path("host").asText("");
            if (!host.isEmpty()) {
                into.add(host);
            }
        }
    }

    static CheckResult appArmorProfile(JsonNode metadata, JsonNode spec) {
        Set<String> badValues = new TreeSet<>();
        List<String> setters = PodSpecs.badProfileSetters(spec, "appArmorProfile",
                type -> type.equals("RuntimeDefault") || type.equals("Localhost"), badValues);
        List<String> forbiddenAnnotations = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = metadata.path("annotations").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String v = e.getValue().asText("");
            if (e.getKey().startsWith(APPARMOR_ANNOTATION)
                    && !(v.isEmpty() || v.equals("runtime/default") || v.startsWith("localhost/"))) {
                forbiddenAnnotations.add(e.getKey() + "=" + goQuote(v));
            }
        }
        List<String> values = new ArrayList<>(badValues);
        if (!forbiddenAnnotations.isEmpty()) {
            forbiddenAnnotations.sort(null);
            values.addAll(forbiddenAnnotations);
            setters.add(pluralize("annotation", "annotations", forbiddenAnnotations.size()));
        }
        if (setters.isEmpty()) {
            return CheckResult.ALLOWED;
        }
        return CheckResult.forbidden(pluralize("forbidden AppArmor profile", "forbidden AppArmor profiles", values.size()),
                String.join(" and ", setters) + " must not set AppArmor profile type to " + joinQuote(values));
    }

    static CheckResult seLinuxOptions(JsonNode spec, Set<String> allowedTypes) {
        Set<String> badTypes = new TreeSet<>();
        boolean[] userAndRole = new boolean[2];
        List<String> setters = new ArrayList<>();
        JsonNode podOptions = securityContext(spec, "seLinuxOptions");
        if (podOptions != null && !validSeLinux(podOptions, allowedTypes, badTypes, userAndRole)) {
            setters.add("pod");
        }
        List<String> bad = new ArrayList<>();
        for (JsonNode c : containers(spec)) {
            JsonNode options = securityContext(c, "seLinuxOptions");
            if (options != null && !validSeLinux(options, allowedTypes, badTypes, userAndRole)) {
                bad.add(name(c));
            }
        }
        if (!bad.isEmpty()) {
            setters.add(pluralize("container", "containers", bad.size()) + " " + joinQuote(bad));
        }
        if (setters.isEmpty()) {
            return CheckResult.ALLOWED;
        }
        List<String> data = new ArrayList<>();
        if (!badTypes.isEmpty()) {
            data.add(pluralize("type", "types", badTypes.size()) + " " + joinQuote(badTypes));
        }
        if (userAndRole[0]) {
            data.add("user may not be set");
        }
        if (userAndRole[1]) {
            data.add("role may not be set");
        }
        return CheckResult.forbidden("seLinuxOptions", String.join(" and ", setters)
                + " set forbidden securityContext.seLinuxOptions: " + String.join("; ", data));
    }

    private static boolean validSeLinux(JsonNode options, Set<String> allowedTypes, Set<String> badTypes,
                                        boolean[] userAndRole) {
        boolean valid = true;
        String type = options.path("type").asText("");
        if (!allowedTypes.contains(type)) {
            valid = false;
            badTypes.add(type);
        }
        if (!options.path("user").asText("").isEmpty()) {
            valid = false;
            userAndRole[0] = true;
        }
        if (!options.path("role").asText("").isEmpty()) {
            valid = false;
            userAndRole[1] = true;
        }
        return valid;
    }

    /** Unmasked {@code /proc} refused, whatever the pod's user namespace (kube's {@code procMount_1_0}). */
    static CheckResult procMount(JsonNode metadata, JsonNode spec) {
        List<String> bad = new ArrayList<>();
        Set<String> types = new TreeSet<>();
        for (JsonNode c : containers(spec)) {
            JsonNode procMount = securityContext(c, "procMount");
            if (procMount != null && !"Default".equals(procMount.asText())) {
                bad.add(name(c));
                types.add(procMount.asText());
            }
        }
        if (bad.isEmpty()) {
            return CheckResult.ALLOWED;
        }
        return CheckResult.forbidden("procMount", pluralize("container", "containers", bad.size()) + " "
                + joinQuote(bad) + " must not set securityContext.procMount to " + joinQuote(types));
    }

    /** Before 1.19, seccomp profiles were annotations. */
    static CheckResult seccompAnnotations(JsonNode metadata, JsonNode spec) {
        Set<String> forbidden = new TreeSet<>();
        JsonNode annotations = metadata.path("annotations");
        List<String> keys = new ArrayList<>();
        keys.add(SECCOMP_POD_ANNOTATION);
        containers(spec).forEach(c -> keys.add(SECCOMP_CONTAINER_ANNOTATION + name(c)));
        for (String key : new LinkedHashSet<>(keys)) {
            JsonNode v = annotations.get(key);
            if (v != null && !validSeccompAnnotation(v.asText(""))) {
                forbidden.add(key + "=" + goQuote(v.asText("")));
            }
        }
        if (forbidden.isEmpty()) {
            return CheckResult.ALLOWED;
        }
        return CheckResult.forbidden("seccompProfile", "forbidden "
                + pluralize("annotation", "annotations", forbidden.size()) + " " + String.join(", ", forbidden));
    }

    private static boolean validSeccompAnnotation(String v) {
        return v.equals("runtime/default") || v.equals("docker/default") || v.startsWith("localhost/");
    }

    static boolean validSeccompType(String type) {
        return type.equals("Localhost") || type.equals("RuntimeDefault");
    }

    static CheckResult seccompProfile(JsonNode metadata, JsonNode spec) {
        Set<String> badValues = new TreeSet<>();
        List<String> setters = PodSpecs.badProfileSetters(spec, "seccompProfile", BaselineChecks::validSeccompType,
                badValues);
        if (setters.isEmpty()) {
            return CheckResult.ALLOWED;
        }
        return CheckResult.forbidden("seccompProfile", String.join(" and ", setters)
                + " must not set securityContext.seccompProfile.type to " + joinQuote(badValues));
    }

    static CheckResult sysctls(JsonNode spec, Set<String> allowed) {
        List<String> forbidden = new ArrayList<>();
        for (JsonNode sysctl : spec.path("securityContext").path("sysctls")) {
            String name = sysctl.path("name").asText("");
            if (!allowed.contains(name)) {
                forbidden.add(name);
            }
        }
        return forbidden.isEmpty() ? CheckResult.ALLOWED
                : CheckResult.forbidden("forbidden sysctls", String.join(", ", forbidden));
    }

    private static Set<String> union(Set<String> base, String... more) {
        Set<String> all = new java.util.HashSet<>(base);
        all.addAll(List.of(more));
        return Set.copyOf(all);
    }
}
