package io.kubelix.admission.podsecurity;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.api.schema.GroupVersionKind;
import io.kubelix.api.schema.GroupVersionResource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.kubelix.admission.podsecurity.Pods.RESTRICTED_POD;
import static io.kubelix.admission.podsecurity.Pods.container;
import static io.kubelix.admission.podsecurity.Pods.json;
import static io.kubelix.admission.podsecurity.Pods.pod;
import static io.kubelix.admission.podsecurity.Pods.restrictedContainer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The plugin: which requests it checks, and what each mode does, with kube's messages. */
class PodSecurityAdmissionTest {
    private static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");
    private static final GroupVersionResource DEPLOYMENTS = new GroupVersionResource("apps", "v1", "deployments");
    private static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    private static final String PRIVILEGED_POD = "{'containers':[" + container("c", "{'privileged':true}") + "]}";

    private final Map<String, ObjectNode> namespaces = new HashMap<>();
    private final Map<String, List<ObjectNode>> pods = new HashMap<>();
    private final PodSecurityAdmission plugin = plugin(PodSecurityConfiguration.DEFAULT);
    private final List<String> warnings = new ArrayList<>();
    private String user = "alice";

    private PodSecurityAdmission plugin(PodSecurityConfiguration config) {
        return new PodSecurityAdmission(config, n -> Optional.ofNullable(namespaces.get(n)),
                n -> pods.getOrDefault(n, List.of()));
    }

    private void namespace(String name, String labels) {
        namespaces.put(name, namespaceObject(name, labels));
    }

    private static ObjectNode namespaceObject(String name, String labels) {
        return json("{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'" + name + "','labels':" + labels + "}}");
    }

    private AdmissionAttributes attributes(Operation op, GroupVersionResource r, String kind, String subresource,
                                           String namespace, ObjectNode object, ObjectNode old) {
        String name = object.path("metadata").path("name").asText();
        return new AdmissionAttributes(op, new GroupVersionKind(r.group(), r.version(), kind), r, subresource, namespace,
                name, object, old, false, new Context());
    }

    private final class Context implements RequestContext {
        @Override
        public UserInfo user() {
            return new UserInfo(user, "", List.of(), Map.of());
        }

        @Override
        public RequestInfo requestInfo() {
            return null;
        }

        @Override
        public String namespace() {
            return "";
        }

        @Override
        public void addWarning(String message) {
            warnings.add(message);
        }
    }

    private void createPod(String namespace, ObjectNode pod) {
        plugin.validate(attributes(Operation.CREATE, PODS, "Pod", "", namespace, pod, null));
    }

    @Test
    void enforceRefusesWithKubesForbidden() {
        namespace("secure", "{'pod-security.kubernetes.io/enforce':'restricted'}");
        StatusException e = assertThrows(StatusException.class, () -> createPod("secure", pod(PRIVILEGED_POD)));
        assertEquals(StatusReason.FORBIDDEN, e.reason());
        assertEquals(403, e.code());
        assertEquals("pods \"p\" is forbidden: violates PodSecurity \"restricted:latest\": "
                + "privileged (container \"c\" must not set securityContext.privileged=true), "
                + "allowPrivilegeEscalation != false (container \"c\" must set securityContext.allowPrivilegeEscalation=false), "
                + "unrestricted capabilities (container \"c\" must set securityContext.capabilities.drop=[\"ALL\"]), "
                + "runAsNonRoot != true (pod or container \"c\" must set securityContext.runAsNonRoot=true), "
                + "seccompProfile (pod or container \"c\" must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")",
                e.getMessage());
        createPod("secure", pod("{" + RESTRICTED_POD + ",'containers':[" + restrictedContainer("c") + "]}"));
        assertEquals(List.of(), warnings);
    }

    @Test
    void enforceAtAVersion() {
        namespace("pinned", "{'pod-security.kubernetes.io/enforce':'baseline','pod-security.kubernetes.io/enforce-version':'v1.33'}");
        createPod("pinned", pod("{'containers':[{'name':'c','image':'i','livenessProbe':{'httpGet':{'host':'h','port':1}}}]}"));
        assertEquals(List.of(), warnings, "probe hosts are checked from v1.34 on");
        StatusException e = assertThrows(StatusException.class, () -> createPod("pinned", pod(PRIVILEGED_POD)));
        assertTrue(e.getMessage().contains("violates PodSecurity \"baseline:v1.33\": privileged"), e.getMessage());
    }

    @Test
    void warnFollowsAStricterEnforceAndIsOnlyAddedWhenAdmitted() {
        namespace("ns", "{'pod-security.kubernetes.io/enforce':'baseline','pod-security.kubernetes.io/warn':'restricted'}");
        createPod("ns", pod("{'containers':[{'name':'c','image':'i'}]}"));
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).startsWith("would violate PodSecurity \"restricted:latest\": allowPrivilegeEscalation != false"),
                warnings.get(0));
        warnings.clear();
        assertThrows(StatusException.class, () -> createPod("ns", pod(PRIVILEGED_POD)));
        assertEquals(List.of(), warnings);
    }

    @Test
    void workloadsAreWarnedAboutNeverRefused() {
        namespace("apps", "{'pod-security.kubernetes.io/enforce':'restricted','pod-security.kubernetes.io/warn':'baseline'}");
        ObjectNode deployment = json("{'apiVersion':'apps/v1','kind':'Deployment','metadata':{'name':'d'},'spec':{'template':"
                + "{'metadata':{},'spec':{'containers':[{'name':'c','image':'i'}],'volumes':[{'name':'data','hostPath':{'path':'/data'}}]}}}}");
        plugin.validate(attributes(Operation.CREATE, DEPLOYMENTS, "Deployment", "", "apps", deployment, null));
        assertEquals(List.of("would violate PodSecurity \"baseline:latest\": hostPath volumes (volume \"data\")"), warnings);

        warnings.clear();
        ObjectNode cronJob = json("{'apiVersion':'batch/v1','kind':'CronJob','metadata':{'name':'cj'},'spec':{'jobTemplate':{'spec':"
                + "{'template':{'spec':{'hostPID':true,'containers':[{'name':'c','image':'i'}]}}}}}}");
        plugin.validate(attributes(Operation.CREATE, new GroupVersionResource("batch", "v1", "cronjobs"), "CronJob", "",
                "apps", cronJob, null));
        assertEquals(List.of("would violate PodSecurity \"baseline:latest\": host namespaces (hostPID=true)"), warnings);
    }

    @Test
    void podUpdatesAreCheckedOnlyWhenImagesOrEphemeralContainersChange() {
        namespace("secure", "{'pod-security.kubernetes.io/enforce':'restricted'}");
        ObjectNode old = pod(PRIVILEGED_POD);
        ObjectNode relabelled = old.deepCopy();
        ((ObjectNode) relabelled.path("metadata")).set("labels", json("{'a':'b'}"));
        plugin.validate(attributes(Operation.UPDATE, PODS, "Pod", "", "secure", relabelled, old));

        ObjectNode newImage = old.deepCopy();
        ((ObjectNode) newImage.path("spec").path("containers").get(0)).put("image", "nginx:2");
        assertThrows(StatusException.class,
                () -> plugin.validate(attributes(Operation.UPDATE, PODS, "Pod", "", "secure", newImage, old)));

        ObjectNode compliant = pod("{" + RESTRICTED_POD + ",'containers':[" + restrictedContainer("c") + "]}");
        ObjectNode debugged = compliant.deepCopy();
        ((ObjectNode) debugged.path("spec")).set("ephemeralContainers",
                json("{'l':[{'name':'debug','image':'busybox'}]}").get("l"));
        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(attributes(Operation.UPDATE, PODS,
                "Pod", "ephemeralcontainers", "secure", debugged, compliant)));
        assertTrue(e.getMessage().contains("container \"debug\" must set securityContext.allowPrivilegeEscalation=false"),
                e.getMessage());

        plugin.validate(attributes(Operation.UPDATE, PODS, "Pod", "status", "secure", newImage, old));
    }

    @Test
    void privilegedNamespacesAndMissingLabelsCheckNothing() {
        namespace("open", "{}");
        createPod("open", pod(PRIVILEGED_POD));
        namespace("priv", "{'pod-security.kubernetes.io/enforce':'privileged'}");
        createPod("priv", pod(PRIVILEGED_POD));
        assertEquals(List.of(), warnings);
    }

    @Test
    void invalidLabelsAreRefused() {
        ObjectNode ns = namespaceObject("bad", "{'pod-security.kubernetes.io/enforce':'strict','pod-security.kubernetes.io/warn-version':'1.30'}");
        StatusException e = assertThrows(StatusException.class, () -> plugin.validate(attributes(Operation.CREATE, NAMESPACES,
                "Namespace", "", "", ns, null)));
        assertEquals(422, e.code());
        assertEquals("Namespace \"bad\" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "
                + "\"strict\": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn-version]: "
                + "Invalid value: \"1.30\": must be \"latest\" or \"v1.x\"]", e.getMessage());

        ObjectNode old = namespaceObject("bad", "{'pod-security.kubernetes.io/enforce':'baseline'}");
        ObjectNode updated = namespaceObject("bad", "{'pod-security.kubernetes.io/enforce-version':'latest!'}");
        e = assertThrows(StatusException.class, () -> plugin.validate(attributes(Operation.UPDATE, NAMESPACES, "Namespace",
                "", "", updated, old)));
        assertEquals("Namespace \"bad\" is invalid: metadata.labels[pod-security.kubernetes.io/enforce-version]: Invalid value: "
                + "\"latest!\": must be \"latest\" or \"v1.x\"", e.getMessage());

        ObjectNode stillBad = namespaceObject("bad", "{'pod-security.kubernetes.io/enforce-version':'latest!','x':'y'}");
        plugin.validate(attributes(Operation.UPDATE, NAMESPACES, "Namespace", "", "", stillBad, updated));
    }

    @Test
    void raisingEnforceWarnsAboutExistingPods() {
        ObjectNode owned = json("{'metadata':{'name':'web-2','ownerReferences':[{'controller':true,'uid':'u1'}]},"
                + "'spec':{'hostNetwork':true,'containers':[{'name':'c','image':'i'}]}}");
        ObjectNode owned2 = json("{'metadata':{'name':'web-1','ownerReferences':[{'controller':true,'uid':'u1'}]},"
                + "'spec':{'hostNetwork':true,'containers':[{'name':'c','image':'i'}]}}");
        ObjectNode priv = pod(PRIVILEGED_POD);
        ObjectNode fine = json("{'metadata':{'name':'fine'},'spec':{'containers':[{'name':'c','image':'i'}]}}");
        pods.put("team", List.of(owned, priv, fine, owned2));
        ObjectNode old = namespaceObject("team", "{}");
        ObjectNode raised = namespaceObject("team", "{'pod-security.kubernetes.io/enforce':'baseline'}");
        plugin.validate(attributes(Operation.UPDATE, NAMESPACES, "Namespace", "", "", raised, old));
        assertEquals(List.of("existing pods in namespace \"team\" violate the new PodSecurity enforce level \"baseline:latest\"",
                "p: privileged", "web-1 (and 1 other pod): host namespaces"), warnings);

        warnings.clear();
        ObjectNode lowered = namespaceObject("team", "{'pod-security.kubernetes.io/enforce':'privileged'}");
        plugin.validate(attributes(Operation.UPDATE, NAMESPACES, "Namespace", "", "", lowered, raised));
        plugin.validate(attributes(Operation.UPDATE, NAMESPACES, "Namespace", "", "", raised, raised));
        assertEquals(List.of(), warnings, "no stricter enforce level, nothing to check");
    }

    @Test
    void atMost3000ExistingPodsAreChecked() {
        List<ObjectNode> many = new ArrayList<>();
        for (int i = 0; i < NamespacePods.MAX_PODS + 1; i++) {
            many.add(json("{'metadata':{'name':'p" + i + "'},'spec':{'hostPID':true,'containers':[{'name':'c','image':'i'}]}}"));
        }
        pods.put("big", many);
        plugin.validate(attributes(Operation.UPDATE, NAMESPACES, "Namespace", "", "",
                namespaceObject("big", "{'pod-security.kubernetes.io/enforce':'baseline'}"), namespaceObject("big", "{}")));
        assertEquals(List.of("new PodSecurity enforce level only checked against the first 3000 of 3001 existing pods",
                "existing pods in namespace \"big\" violate the new PodSecurity enforce level \"baseline:latest\"",
                "p0 (and 2999 other pods): host namespaces"), warnings);
    }

    @Test
    void theConfigurationsDefaultsApplyToUnlabelledNamespacesAndItsExemptionsAreNotChecked() {
        PodSecurityAdmission configured = plugin(PodSecurityConfiguration.of(json("{'apiVersion':"
                + "'pod-security.admission.config.k8s.io/v1','kind':'PodSecurityConfiguration','defaults':{'enforce':'baseline'},"
                + "'exemptions':{'usernames':['system:serviceaccount:kube-system:replicaset-controller'],"
                + "'runtimeClasses':['kata'],'namespaces':['kube-system']}}")));
        namespace("plain", "{}");
        namespace("kube-system", "{'pod-security.kubernetes.io/enforce':'restricted'}");
        StatusException e = assertThrows(StatusException.class, () -> configured.validate(attributes(Operation.CREATE,
                PODS, "Pod", "", "plain", pod(PRIVILEGED_POD), null)));
        assertTrue(e.getMessage().contains("violates PodSecurity \"baseline:latest\": privileged"), e.getMessage());

        configured.validate(attributes(Operation.CREATE, PODS, "Pod", "", "kube-system", pod(PRIVILEGED_POD), null));
        ObjectNode kata = pod(PRIVILEGED_POD);
        ((ObjectNode) kata.path("spec")).put("runtimeClassName", "kata");
        configured.validate(attributes(Operation.CREATE, PODS, "Pod", "", "plain", kata, null));
        user = "system:serviceaccount:kube-system:replicaset-controller";
        configured.validate(attributes(Operation.CREATE, PODS, "Pod", "", "plain", pod(PRIVILEGED_POD), null));
        assertEquals(List.of(), warnings);

        ObjectNode labelled = namespaceObject("kube-system", "{'pod-security.kubernetes.io/enforce':'restricted',"
                + "'pod-security.kubernetes.io/warn-version':'v1.30'}");
        configured.validate(attributes(Operation.CREATE, NAMESPACES, "Namespace", "", "", labelled, null));
        assertEquals(List.of("namespace \"kube-system\" is exempt from Pod Security, and the policy "
                + "(enforce=restricted:latest, warn=restricted:v1.30) will be ignored"), warnings);
    }

    @Test
    void theConfigurationIsReadFromTheAdmissionConfigurationFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Files.writeString(dir.resolve("admission.yaml"), """
                apiVersion: apiserver.config.k8s.io/v1
                kind: AdmissionConfiguration
                plugins:
                - name: PodSecurity
                  path: podsecurity.yaml
                """);
        java.nio.file.Files.writeString(dir.resolve("podsecurity.yaml"), """
                apiVersion: pod-security.admission.config.k8s.io/v1
                kind: PodSecurityConfiguration
                defaults: {enforce: restricted, enforce-version: v1.30, warn: baseline}
                exemptions: {namespaces: [kube-system]}
                """);
        com.fasterxml.jackson.databind.ObjectMapper yaml = new com.fasterxml.jackson.databind.ObjectMapper(
                new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
        PodSecurityConfiguration c = PodSecurityConfiguration.read(dir.resolve("admission.yaml").toString(), yaml);
        assertEquals("restricted:v1.30", c.defaults().enforce().toString());
        assertEquals("baseline:latest", c.defaults().warn().toString());
        assertEquals("privileged:latest", c.defaults().audit().toString());
        assertEquals(java.util.Set.of("kube-system"), c.namespaces());

        java.nio.file.Files.writeString(dir.resolve("podsecurity.yaml"), """
                apiVersion: pod-security.admission.config.k8s.io/v1
                kind: PodSecurityConfiguration
                defaults: {enforce: strict}
                exemptions: {usernames: [a, a]}
                """);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PodSecurityConfiguration.read(dir.resolve("admission.yaml").toString(), yaml));
        assertEquals("invalid PodSecurityConfiguration: defaults.enforce: Invalid value: \"strict\": must be one of "
                + "privileged, baseline, restricted, exemptions.usernames[1]: Duplicate value: \"a\"", e.getMessage());
    }

    @Test
    void namespacePolicyDefaults() {
        NamespacePolicy p = NamespacePolicy.of(json("{'pod-security.kubernetes.io/enforce':'restricted',"
                + "'pod-security.kubernetes.io/enforce-version':'v1.30','pod-security.kubernetes.io/audit':'nope'}"));
        assertEquals("restricted:v1.30", p.enforce().toString());
        assertEquals("restricted:v1.30", p.warn().toString(), "warn follows a stricter enforce, with its version");
        assertEquals("privileged:latest", p.audit().toString(), "an invalid audit level fails open");
        assertEquals("restricted:latest", NamespacePolicy.of(json("{'pod-security.kubernetes.io/enforce':'x'}")).enforce()
                .toString(), "an invalid enforce level fails closed");
    }
}
