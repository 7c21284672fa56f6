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
 * Namespaces and pods are read through the server's informers. Not yet: the exemptions and defaults
 * of {@code --admission-control-config-file} (every namespace defaults to {@code privileged:latest}).
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

    private final Function<String, Optional<ObjectNode>> namespaces;
    private final NamespacePods existingPods;
    private final Evaluator evaluator = Evaluator.standard();

    @Activate
    public PodSecurityAdmission(@Reference SharedInformerFactory informers) {
        this(name -> informers.forResource(NAMESPACES).lister().get(name),
                namespace -> informers.forResource(PODS).lister().byNamespace(namespace).list());
    }

    PodSecurityAdmission(Function<String, Optional<ObjectNode>> namespaces, Function<String, List<ObjectNode>> pods) {
        this.namespaces = namespaces;
        this.existingPods = new NamespacePods(pods, evaluator);
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
        NamespacePolicy policy = NamespacePolicy.of(a.object().path("metadata").path("labels"));
        if (a.operation() == Operation.CREATE) {
            if (!policy.errors().isEmpty()) {
                throw invalid(a, policy);
            }
            return;
        }
        NamespacePolicy old = NamespacePolicy.of(a.oldObject() == null ? null
                : a.oldObject().path("metadata").path("labels"));
        if (!policy.errors().isEmpty() && (old.errors().isEmpty() || !policy.errors().equals(old.errors()))) {
            throw invalid(a, policy);
        }
        LevelVersion enforce = policy.enforce();
        LevelVersion oldEnforce = old.enforce();
        if (enforce.equals(oldEnforce) || enforce.level() == Level.PRIVILEGED
                || enforce.version() == oldEnforce.version() && enforce.level().compareTo(oldEnforce.level()) < 1) {
            return;
        }
        String name = a.object().path("metadata").path("name").asText();
        existingPods.warnings(name, enforce).forEach(a.context()::addWarning);
    }

    private static StatusException invalid(AdmissionAttributes a, NamespacePolicy policy) {
        return StatusException.invalid("Namespace", "", a.object().path("metadata").path("name").asText(a.name()),
                policy.errors());
    }

    private void validatePod(AdmissionAttributes a) {
        if (IGNORED_POD_SUBRESOURCES.contains(a.subresource()) || a.object() == null) {
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
        if (!a.subresource().isEmpty() || a.object() == null) {
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

    /** kube's {@code EvaluatePod}: enforce (pods only), then audit, then warn when admitted. */
    private void evaluate(AdmissionAttributes a, NamespacePolicy policy, JsonNode metadata, JsonNode spec,
                          boolean enforce) {
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
        return NamespacePolicy.of(ns.get().path("metadata").path("labels"));
    }
}
