package io.kubelix.admission.podsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.admission.podsecurity.LevelVersion.Level;
import io.kubelix.api.admission.AdmissionAttributes;
import io.kubelix.api.admission.Operation;
import io.kubelix.api.admission.ValidatingAdmissionPlugin;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.schema.GroupVersionResource;
import io.kubelix.support.admission.config.AdmissionConfigurationFile;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The PodSecurity admission plugin (kube's {@code plugin/pkg/admission/security/podsecurity} over
 * {@code k8s.io/pod-security-admission}): the Pod Security Standards, chosen per namespace by its
 * {@code pod-security.kubernetes.io/<mode>} and {@code <mode>-version} labels.
 *
 * <ul>
 *   <li>Pods, on create and on updates that change an image or add an ephemeral container: a pod
 *       breaking the {@code enforce} level is refused with kube's 403 ({@code violates PodSecurity
 *       "restricted:latest": ...}); one breaking {@code warn} gets kube's warning ({@code would
 *       violate PodSecurity "baseline:latest": ...}); one breaking {@code audit} is logged.</li>
 *   <li>Workloads with a pod template (deployments, replicasets, statefulsets, daemonsets, jobs,
 *       cronjobs, replicationcontrollers, podtemplates): warned about and audited, never refused, as
 *       their pods are checked when they are made.</li>
 *   <li>Namespaces: a label value that is not a level or version is refused with kube's 422; an
 *       enforce level made stricter warns about the namespace's existing pods that break it.</li>
 * </ul>
 *
 * Namespaces and pods are read through the server's informers. {@code --admission-control-config-file}
 * may give a {@link PodSecurityConfiguration}: the policy of namespaces without labels (else
 * {@code privileged:latest}) and the users, namespaces and runtime classes never checked.
 */
@Component(service = ValidatingAdmissionPlugin.class)
public final class PodSecurityAdmission implements ValidatingAdmissionPlugin {
    private static final Logger LOG = LoggerFactory.getLogger(PodSecurityAdmission.class);
    static final String PLUGIN_NAME = "PodSecurity";
    static final GroupVersionResource NAMESPACES = new GroupVersionResource("", "v1", "namespaces");
    static final GroupVersionResource PODS = new GroupVersionResource("", "v1", "pods");

    /** Subresources of pods that cannot change what the checks look at (kube's {@code ignoredPodSubresources}). */
    private static final Set<String> IGNORED_POD_SUBRESOURCES = Set.of("exec", "attach", "binding", "eviction", "log",
            "portforward", "proxy", "status");
    /** How long a pod's namespace, not yet in the informer, is waited for. */
    private static final long NAMESPACE_WAIT_MILLIS = 1000;

    private final PodSecurityConfiguration config;
    private final Function<String, Optional<ObjectNode>> namespaces;
    private final NamespacePods existingPods;
    private final Evaluator evaluator = Evaluator.standard();

    @Activate
    public PodSecurityAdmission(@Reference SharedInformerFactory informers, BundleContext context) {
        this(configuration(context.getProperty(AdmissionConfigurationFile.PROPERTY)),
                name -> informers.forResource(NAMESPACES).lister().get(name),
                namespace -> informers.forResource(PODS).lister().byNamespace(namespace).list());
    }

    PodSecurityAdmission(PodSecurityConfiguration config, Function<String, Optional<ObjectNode>> namespaces,
                         Function<String, List<ObjectNode>> pods) {
        this.config = config;
        this.namespaces = namespaces;
        this.existingPods = new NamespacePods(pods, evaluator, config.runtimeClasses());
    }

    private static PodSecurityConfiguration configuration(String admissionConfigFile) {
        if (admissionConfigFile == null || admissionConfigFile.isBlank()) {
            return PodSecurityConfiguration.DEFAULT;
        }
        PodSecurityConfiguration c = PodSecurityConfiguration.read(admissionConfigFile, new ObjectMapper(new YAMLFactory()));
        LOG.info("PodSecurity: defaults enforce={}, audit={}, warn={}; exempt users {}, namespaces {}, runtime classes {}"
                        + " (from {})", c.defaults().enforce(), c.defaults().audit(), c.defaults().warn(), c.usernames(),
                c.namespaces(), c.runtimeClasses(), admissionConfigFile);
        return c;
    }

    @Override
    public String name() {
        return PLUGIN_NAME;
    }

    @Override
    public boolean handles(Operation operation) {
        return operation == Operation.CREATE || operation == Operation.UPDATE;
    }

    @Override
    public void validate(AdmissionAttributes a) {
        GroupVersionResource r = a.resource();
        if (r.group().isEmpty() && r.resource().equals("namespaces")) {
            validateNamespace(a);
        } else if (r.group().isEmpty() && r.resource().equals("pods")) {
            validatePod(a);
        } else if (PodTemplates.has(r.groupResource())) {
            validatePodController(a);
        }
    }

    private void validateNamespace(AdmissionAttributes a) {
        if (!a.subresource().isEmpty() || a.object() == null) {
            return;
        }
        JsonNode labels = a.object().path("metadata").path("labels");
        NamespacePolicy policy = NamespacePolicy.of(labels, config.defaults());
        String name = a.object().path("metadata").path("name").asText();
        if (a.operation() == Operation.CREATE) {
            if (!policy.errors().isEmpty()) {
                throw invalid(a, policy);
            }
            warnIfExempt(a, name, policy, labels);
            return;
        }
        NamespacePolicy old = NamespacePolicy.of(a.oldObject() == null ? null
                : a.oldObject().path("metadata").path("labels"), config.defaults());
        if (!policy.errors().isEmpty() && (old.errors().isEmpty() || !policy.errors().equals(old.errors()))) {
            throw invalid(a, policy);
        }
        LevelVersion enforce = policy.enforce();
        LevelVersion oldEnforce = old.enforce();
        if (enforce.equals(oldEnforce) || enforce.level() == Level.PRIVILEGED
                || enforce.version() == oldEnforce.version() && enforce.level().compareTo(oldEnforce.level()) < 1) {
            return;
        }
        if (config.namespaces().contains(name)) {
            warnIfExempt(a, name, policy, labels);
            return;
        }
        existingPods.warnings(name, enforce).forEach(a.context()::addWarning);
    }

    /** kube's {@code exemptNamespaceWarning}: an exempt namespace labelled with a policy is told it is ignored. */
    private void warnIfExempt(AdmissionAttributes a, String name, NamespacePolicy policy, JsonNode labels) {
        if (!config.namespaces().contains(name) || policy.fullyPrivileged() || policy.equivalent(config.defaults())) {
            return;
        }
        List<String> modes = new java.util.ArrayList<>();
        addMode(modes, "enforce", policy.enforce(), labels, NamespacePolicy.ENFORCE, NamespacePolicy.ENFORCE_VERSION);
        addMode(modes, "audit", policy.audit(), labels, NamespacePolicy.AUDIT, NamespacePolicy.AUDIT_VERSION);
        addMode(modes, "warn", policy.warn(), labels, NamespacePolicy.WARN, NamespacePolicy.WARN_VERSION);
        a.context().addWarning("namespace \"" + name + "\" is exempt from Pod Security, and the policy ("
                + String.join(", ", modes) + ") will be ignored");
    }

    private static void addMode(List<String> modes, String mode, LevelVersion lv, JsonNode labels, String levelLabel,
                                String versionLabel) {
        if (lv.level() != Level.PRIVILEGED && (labels.has(levelLabel) || labels.has(versionLabel))) {
            modes.add(mode + "=" + lv);
        }
    }

    private static StatusException invalid(AdmissionAttributes a, NamespacePolicy policy) {
        return StatusException.invalid("Namespace", "", a.object().path("metadata").path("name").asText(a.name()),
                policy.errors());
    }

    private void validatePod(AdmissionAttributes a) {
        if (IGNORED_POD_SUBRESOURCES.contains(a.subresource()) || a.object() == null || exempt(a)) {
            return;
        }
        NamespacePolicy policy = namespacePolicy(a, true);
        if (policy == null || policy.errors().isEmpty() && policy.fullyPrivileged()) {
            return;
        }
        if (a.operation() == Operation.UPDATE && a.oldObject() != null
                && !PodTemplates.significantUpdate(a.object().path("spec"), a.oldObject().path("spec"))) {
            return;
        }
        evaluate(a, policy, a.object().path("metadata"), a.object().path("spec"), true);
    }

    private void validatePodController(AdmissionAttributes a) {
        if (!a.subresource().isEmpty() || a.object() == null || exempt(a)) {
            return;
        }
        NamespacePolicy policy = namespacePolicy(a, false);
        if (policy == null || policy.errors().isEmpty() && policy.warn().level() == Level.PRIVILEGED
                && policy.audit().level() == Level.PRIVILEGED) {
            return;
        }
        JsonNode template = PodTemplates.template(a.resource().groupResource(), a.object());
        if (template == null) {
            return;
        }
        evaluate(a, policy, template.path("metadata"), template.path("spec"), false);
    }

    /** An exempt namespace or user (the configuration's exemptions) is not checked. */
    private boolean exempt(AdmissionAttributes a) {
        return !a.namespace().isEmpty() && config.namespaces().contains(a.namespace())
                || config.usernames().contains(a.context().user().name());
    }

    /** kube's {@code EvaluatePod}: enforce (pods only), then audit, then warn when admitted. */
    private void evaluate(AdmissionAttributes a, NamespacePolicy policy, JsonNode metadata, JsonNode spec,
                          boolean enforce) {
        if (config.runtimeClasses().contains(spec.path("runtimeClassName").asText(""))) {
            return;
        }
        if (!policy.errors().isEmpty()) {
            LOG.warn("PodSecurity: failed to parse the labels of namespace {} ({} {}): {}", a.namespace(),
                    a.resource().resource(), a.name(), policy.errors().get(0).message());
        }
        if (enforce) {
            CheckResult.Aggregate result = evaluator.aggregate(policy.enforce(), metadata, spec);
            if (!result.allowed()) {
                String why = "violates PodSecurity \"" + policy.enforce() + "\": " + result.forbiddenDetail();
                audit(a, policy, metadata, spec);
                throw StatusException.forbidden(a.resource().groupResource(), a.name(), why);
            }
        }
        audit(a, policy, metadata, spec);
        CheckResult.Aggregate warn = evaluator.aggregate(policy.warn(), metadata, spec);
        if (!warn.allowed()) {
            a.context().addWarning("would violate PodSecurity \"" + policy.warn() + "\": " + warn.forbiddenDetail());
        }
    }

    private void audit(AdmissionAttributes a, NamespacePolicy policy, JsonNode metadata, JsonNode spec) {
        CheckResult.Aggregate audit = evaluator.aggregate(policy.audit(), metadata, spec);
        if (!audit.allowed()) {
            LOG.info("PodSecurity audit: {} {} {}/{} by {}: would violate PodSecurity \"{}\": {}", a.operation(),
                    a.resource().resource(), a.namespace(), a.name(), a.context().user().name(), policy.audit(),
                    audit.forbiddenDetail());
        }
    }

    /**
     * The policy of the request's namespace, read through the informer (waited for a moment when the
     * namespace is new). A missing namespace refuses a pod with kube's 500 and passes a workload.
     */
    private NamespacePolicy namespacePolicy(AdmissionAttributes a, boolean pod) {
        Optional<ObjectNode> ns = namespaces.apply(a.namespace());
        long deadline = System.currentTimeMillis() + NAMESPACE_WAIT_MILLIS;
        while (ns.isEmpty() && System.currentTimeMillis() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            ns = namespaces.apply(a.namespace());
        }
        if (ns.isEmpty()) {
            if (pod) {
                throw StatusException.internalError("failed to lookup namespace \"" + a.namespace() + "\"", null);
            }
            LOG.warn("PodSecurity: failed to lookup namespace {} for {} {}", a.namespace(), a.resource().resource(),
                    a.name());
            return null;
        }
        return NamespacePolicy.of(ns.get().path("metadata").path("labels"), config.defaults());
    }
}
