package io.kubelix.admission.podsecurity;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import static io.kubelix.admission.podsecurity.Pods.container;
import static io.kubelix.admission.podsecurity.Pods.json;
import static io.kubelix.admission.podsecurity.Pods.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Each baseline check on a compliant and a violating pod, with kube's words. */
class BaselineChecksTest {
    private static final Evaluator EVALUATOR = Evaluator.standard();
    private static final LevelVersion BASELINE = new LevelVersion(LevelVersion.Level.BASELINE, LevelVersion.LATEST);

    /** What baseline:latest says of a pod: "" when it passes, else kube's detail. */
    static String baseline(ObjectNode pod) {
        return EVALUATOR.aggregate(BASELINE, pod.path("metadata"), pod.path("spec")).forbiddenDetail();
    }

    @Test
    void plainPodPasses() {
        assertEquals("", baseline(pod("{'containers':[{'name':'c','image':'nginx'}]}")));
    }

    @Test
    void windowsHostProcess() {
        assertEquals("", baseline(pod("{'securityContext':{'windowsOptions':{'hostProcess':false}},'containers':["
                + container("c", "{'windowsOptions':{'hostProcess':false}}") + "]}")));
        assertEquals("hostProcess (pod and containers \"a\", \"b\" must not set securityContext.windowsOptions.hostProcess=true)",
                baseline(pod("{'securityContext':{'windowsOptions':{'hostProcess':true}},'containers':["
                        + container("a", "{'windowsOptions':{'hostProcess':true}}") + ","
                        + container("b", "{'windowsOptions':{'hostProcess':true}}") + "]}")));
    }

    @Test
    void hostNamespaces() {
        assertEquals("", baseline(pod("{'hostNetwork':false,'containers':[{'name':'c','image':'i'}]}")));
        assertEquals("host namespaces (hostNetwork=true, hostPID=true, hostIPC=true)",
                baseline(pod("{'hostIPC':true,'hostPID':true,'hostNetwork':true,'containers':[{'name':'c','image':'i'}]}")));
    }

    @Test
    void privileged() {
        assertEquals("", baseline(pod("{'containers':[" + container("c", "{'privileged':false}") + "]}")));
        assertEquals("privileged (container \"c\" must not set securityContext.privileged=true)",
                baseline(pod("{'containers':[" + container("c", "{'privileged':true}") + "]}")));
        assertEquals("privileged (containers \"init\", \"c\", \"debug\" must not set securityContext.privileged=true)",
                baseline(pod("{'initContainers':[" + container("init", "{'privileged':true}") + "],'containers':["
                        + container("c", "{'privileged':true}") + "],'ephemeralContainers':["
                        + container("debug", "{'privileged':true}") + "]}")));
    }

    @Test
    void capabilities() {
        assertEquals("", baseline(pod("{'containers':[" + container("c", "{'capabilities':{'add':['CHOWN','KILL']}}") + "]}")));
        assertEquals("non-default capabilities (containers \"a\", \"b\" must not include \"NET_ADMIN\", \"SYS_ADMIN\" in securityContext.capabilities.add)",
                baseline(pod("{'containers':[" + container("a", "{'capabilities':{'add':['SYS_ADMIN','CHOWN']}}") + ","
                        + container("b", "{'capabilities':{'add':['NET_ADMIN']}}") + "]}")));
    }

    @Test
    void hostPathVolumes() {
        assertEquals("", baseline(pod("{'containers':[{'name':'c','image':'i'}],'volumes':[{'name':'v','emptyDir':{}}]}")));
        assertEquals("hostPath volumes (volumes \"h1\", \"h2\")",
                baseline(pod("{'containers':[{'name':'c','image':'i'}],'volumes':[{'name':'h1','hostPath':{'path':'/'}},"
                        + "{'name':'e','emptyDir':{}},{'name':'h2','hostPath':{'path':'/etc'}}]}")));
    }

    @Test
    void hostPorts() {
        assertEquals("", baseline(pod("{'containers':[{'name':'c','image':'i','ports':[{'containerPort':80}]}]}")));
        assertEquals("hostPort (container \"c\" uses hostPorts 8080, 9090)",
                baseline(pod("{'containers':[{'name':'c','image':'i','ports':[{'containerPort':80,'hostPort':9090},"
                        + "{'containerPort':81,'hostPort':8080}]}]}")));
    }

    @Test
    void hostProbesAndLifecycle() {
        assertEquals("", baseline(pod("{'containers':[{'name':'c','image':'i','livenessProbe':{'httpGet':{'port':80}}}]}")));
        assertEquals("probe or lifecycle host (container \"c\" uses probe or lifecycle hosts \"evil.example\", \"example.com\")",
                baseline(pod("{'containers':[{'name':'c','image':'i','livenessProbe':{'httpGet':{'host':'example.com','port':80}},"
                        + "'lifecycle':{'preStop':{'tcpSocket':{'host':'evil.example','port':1}}}}]}")));
    }

    @Test
    void appArmorProfile() {
        assertEquals("", baseline(pod("{'securityContext':{'appArmorProfile':{'type':'RuntimeDefault'}},'containers':["
                + container("c", "{'appArmorProfile':{'type':'Localhost','localhostProfile':'p'}}") + "]}")));
        ObjectNode pod = pod("{'securityContext':{'appArmorProfile':{'type':'Unconfined'}},'containers':[{'name':'c','image':'i'}]}");
        ((ObjectNode) pod.path("metadata")).set("annotations",
                json("{'container.apparmor.security.beta.kubernetes.io/c':'unconfined'}"));
        assertEquals("forbidden AppArmor profiles (pod and annotation must not set AppArmor profile type to "
                + "\"Unconfined\", \"container.apparmor.security.beta.kubernetes.io/c=\"unconfined\"\")", baseline(pod));
    }

    @Test
    void seLinuxOptions() {
        assertEquals("", baseline(pod("{'securityContext':{'seLinuxOptions':{'type':'container_engine_t','level':'s0'}},"
                + "'containers':[{'name':'c','image':'i'}]}")));
        assertEquals("seLinuxOptions (pod and container \"c\" set forbidden securityContext.seLinuxOptions: "
                        + "type \"spc_t\"; user may not be set; role may not be set)",
                baseline(pod("{'securityContext':{'seLinuxOptions':{'type':'spc_t'}},'containers':["
                        + container("c", "{'seLinuxOptions':{'user':'root','role':'sysadm_r'}}") + "]}")));
    }

    @Test
    void procMount() {
        assertEquals("", baseline(pod("{'containers':[" + container("c", "{'procMount':'Default'}") + "]}")));
        assertEquals("procMount (container \"c\" must not set securityContext.procMount to \"Unmasked\")",
                baseline(pod("{'containers':[" + container("c", "{'procMount':'Unmasked'}") + "]}")));
        assertEquals("", baseline(pod("{'hostUsers':false,'containers':[" + container("c", "{'procMount':'Unmasked'}") + "]}")),
                "from 1.35, baseline lets pods in a user namespace unmask /proc");
    }

    @Test
    void seccompProfile() {
        assertEquals("", baseline(pod("{'containers':[" + container("c", "{'seccompProfile':{'type':'RuntimeDefault'}}") + "]}")));
        assertEquals("seccompProfile (pod and container \"c\" must not set securityContext.seccompProfile.type to \"Unconfined\")",
                baseline(pod("{'securityContext':{'seccompProfile':{'type':'Unconfined'}},'containers':["
                        + container("c", "{'seccompProfile':{'type':'Unconfined'}}") + "]}")));
    }

    @Test
    void sysctls() {
        assertEquals("", baseline(pod("{'securityContext':{'sysctls':[{'name':'net.ipv4.tcp_keepalive_time','value':'1'},"
                + "{'name':'net.ipv4.tcp_notsent_lowat','value':'1'}]},'containers':[{'name':'c','image':'i'}]}")));
        assertEquals("forbidden sysctls (kernel.msgmax, net.core.somaxconn)",
                baseline(pod("{'securityContext':{'sysctls':[{'name':'kernel.msgmax','value':'1'},"
                        + "{'name':'net.core.somaxconn','value':'1'}]},'containers':[{'name':'c','image':'i'}]}")));
    }

    @Test
    void reasonsComeInKubesOrder() {
        ObjectNode pod = pod("{'hostNetwork':true,'containers':[{'name':'c','image':'i','ports':[{'containerPort':80,'hostPort':80}],"
                + "'securityContext':{'privileged':true}}],'volumes':[{'name':'h','hostPath':{'path':'/'}}]}");
        assertEquals("host namespaces (hostNetwork=true), hostPath volumes (volume \"h\"), hostPort (container \"c\" uses "
                + "hostPort 80), privileged (container \"c\" must not set securityContext.privileged=true)", baseline(pod));
    }
}
