package io.kubelix.admission.podsecurity;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import static io.kubelix.admission.podsecurity.Pods.RESTRICTED_POD;
import static io.kubelix.admission.podsecurity.Pods.container;
import static io.kubelix.admission.podsecurity.Pods.pod;
import static io.kubelix.admission.podsecurity.Pods.restrictedContainer;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Each restricted check on a compliant and a violating pod, with kube's words, and how versions choose them. */
class RestrictedChecksTest {
    private static final Evaluator EVALUATOR = Evaluator.standard();

    static String restricted(ObjectNode pod) {
        return at(LevelVersion.LATEST, pod);
    }

    static String at(int version, ObjectNode pod) {
        return EVALUATOR.aggregate(new LevelVersion(LevelVersion.Level.RESTRICTED, version), pod.path("metadata"),
                pod.path("spec")).forbiddenDetail();
    }

    @Test
    void compliantPodPasses() {
        assertEquals("", restricted(pod("{" + RESTRICTED_POD + ",'containers':[" + restrictedContainer("c") + "],"
                + "'volumes':[{'name':'v','configMap':{'name':'x'}},{'name':'p','persistentVolumeClaim':{'claimName':'c'}}]}")));
    }

    @Test
    void plainPodBreaksFourChecks() {
        assertEquals("allowPrivilegeEscalation != false (container \"c\" must set securityContext.allowPrivilegeEscalation=false), "
                        + "unrestricted capabilities (container \"c\" must set securityContext.capabilities.drop=[\"ALL\"]), "
                        + "runAsNonRoot != true (pod or container \"c\" must set securityContext.runAsNonRoot=true), "
                        + "seccompProfile (pod or container \"c\" must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")",
                restricted(pod("{'containers':[{'name':'c','image':'nginx'}]}")));
    }

    @Test
    void restrictedVolumes() {
        assertEquals("restricted volume types (volumes \"h\", \"n\" use restricted volume types \"hostPath\", \"nfs\")",
                restricted(pod("{" + RESTRICTED_POD + ",'containers':[" + restrictedContainer("c") + "],'volumes':["
                        + "{'name':'h','hostPath':{'path':'/'}},{'name':'n','nfs':{'server':'s','path':'/'}},"
                        + "{'name':'e','emptyDir':{}}]}")),
                "restrictedVolumes replaces baseline's hostPathVolumes");
    }

    @Test
    void allowPrivilegeEscalation() {
        assertEquals("allowPrivilegeEscalation != false (container \"c\" must set securityContext.allowPrivilegeEscalation=false)",
                restricted(pod("{" + RESTRICTED_POD + ",'containers':["
                        + container("c", "{'allowPrivilegeEscalation':true,'capabilities':{'drop':['ALL']}}") + "]}")));
    }

    @Test
    void runAsNonRoot() {
        assertEquals("runAsNonRoot != true (pod and container \"c\" must not set securityContext.runAsNonRoot=false)",
                restricted(pod("{'securityContext':{'runAsNonRoot':false,'seccompProfile':{'type':'RuntimeDefault'}},"
                        + "'containers':[" + container("c", "{'runAsNonRoot':false,'allowPrivilegeEscalation':false,"
                        + "'capabilities':{'drop':['ALL']}}") + "]}")));
        assertEquals("", restricted(pod("{'securityContext':{'seccompProfile':{'type':'RuntimeDefault'}},'containers':["
                + container("c", "{'runAsNonRoot':true,'allowPrivilegeEscalation':false,'capabilities':{'drop':['ALL']}}") + "]}")),
                "a container may say it itself");
    }

    @Test
    void runAsUser() {
        assertEquals("runAsUser=0 (pod and container \"c\" must not set runAsUser=0)",
                restricted(pod("{'securityContext':{'runAsUser':0,'runAsNonRoot':true,'seccompProfile':{'type':'RuntimeDefault'}},"
                        + "'containers':[" + container("c", "{'runAsUser':0,'allowPrivilegeEscalation':false,"
                        + "'capabilities':{'drop':['ALL']}}") + "]}")));
        assertEquals("", restricted(pod("{'hostUsers':false,'securityContext':{'runAsUser':0,'seccompProfile':{'type':'RuntimeDefault'}},"
                + "'containers':[" + restrictedContainer("c") + "]}")), "root in a user namespace is allowed from 1.35");
        assertEquals("runAsNonRoot != true (pod or container \"c\" must set securityContext.runAsNonRoot=true), "
                        + "runAsUser=0 (pod must not set runAsUser=0)",
                at(34, pod("{'hostUsers':false,'securityContext':{'runAsUser':0,'seccompProfile':{'type':'RuntimeDefault'}},"
                        + "'containers':[" + restrictedContainer("c") + "]}")), "but not at v1.34");
    }

    @Test
    void seccompProfile() {
        assertEquals("seccompProfile (container \"c\" must not set securityContext.seccompProfile.type to \"Unconfined\")",
                restricted(pod("{" + RESTRICTED_POD + ",'containers':[" + container("c", "{'allowPrivilegeEscalation':false,"
                        + "'capabilities':{'drop':['ALL']},'seccompProfile':{'type':'Unconfined'}}") + "]}")));
    }

    @Test
    void capabilities() {
        assertEquals("unrestricted capabilities (container \"a\" must set securityContext.capabilities.drop=[\"ALL\"]; "
                        + "container \"b\" must not include \"CHOWN\" in securityContext.capabilities.add)",
                restricted(pod("{" + RESTRICTED_POD + ",'containers':["
                        + container("a", "{'allowPrivilegeEscalation':false,'capabilities':{'add':['NET_BIND_SERVICE']}}") + ","
                        + container("b", "{'allowPrivilegeEscalation':false,'capabilities':{'drop':['ALL'],'add':['CHOWN']}}")
                        + "]}")), "restricted's capability check replaces baseline's");
    }

    @Test
    void procMount() {
        String unmasked = "{" + RESTRICTED_POD + ",'hostUsers':false,'containers':[" + container("c",
                "{'allowPrivilegeEscalation':false,'capabilities':{'drop':['ALL']},'procMount':'Unmasked'}") + "]}";
        assertEquals("procMount (container \"c\" must not set securityContext.procMount to \"Unmasked\")",
                restricted(pod(unmasked)), "restricted never allows an unmasked /proc");
    }

    @Test
    void windowsPodsSkipLinuxOnlyChecksFrom125() {
        ObjectNode windows = pod("{'os':{'name':'windows'},'securityContext':{'runAsNonRoot':true},"
                + "'containers':[{'name':'c','image':'i'}]}");
        assertEquals("", restricted(windows));
        assertEquals("allowPrivilegeEscalation != false (container \"c\" must set securityContext.allowPrivilegeEscalation=false), "
                + "unrestricted capabilities (container \"c\" must set securityContext.capabilities.drop=[\"ALL\"]), "
                + "seccompProfile (pod or container \"c\" must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")",
                at(24, windows));
    }

    @Test
    void olderVersionsCheckLess() {
        ObjectNode pod = pod("{'securityContext':{'runAsNonRoot':true,'runAsUser':0},'containers':[{'name':'c','image':'i'}]}");
        assertEquals("", at(0, pod("{'securityContext':{'runAsNonRoot':true},'containers':[{'name':'c','image':'i'}]}")),
                "v1.0 had neither the privilege escalation, capability, seccomp nor runAsUser checks");
        assertEquals("allowPrivilegeEscalation != false (container \"c\" must set securityContext.allowPrivilegeEscalation=false), "
                + "seccompProfile (pod or container \"c\" must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")",
                at(19, pod), "no runAsUser check before v1.23, no capability check before v1.22");
    }
}
