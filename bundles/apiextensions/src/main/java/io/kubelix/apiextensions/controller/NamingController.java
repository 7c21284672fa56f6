package io.kubelix.apiextensions.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.apiextensions.Crds;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.informer.ResourceEventHandlerRegistration;
import io.kubelix.api.informer.SharedIndexInformer;
import io.kubelix.api.informer.SharedInformerFactory;
import io.kubelix.api.registry.UpdateOptions;
import io.kubelix.api.registry.Updater;
import io.kubelix.api.request.RequestContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * kube's NamingConditionController: a CRD's requested names (plural, singular, short names, kind,
 * list kind) are accepted into {@code status.acceptedNames} unless another CRD of the same group
 * has accepted them already; conflicts set {@code NamesAccepted=False} with kube's reasons
 * ({@code PluralConflict}, {@code ShortNamesConflict}, ...), and names accepted once stay accepted
 * while the spec asks for conflicting ones. A CRD whose names are accepted and that is not yet
 * established gets {@code Established=False} ({@code Installing}) until the establishing step. Any
 * change to a CRD queues every CRD of its group, so a freed name is taken up.
 */
public final class NamingController {
    private static final Logger LOG = LoggerFactory.getLogger(NamingController.class);

    private final SharedIndexInformer crds;
    private final Updater crdStatus;
    private final QueueWorker<String> worker;
    private final ResourceEventHandlerRegistration registration;

    public NamingController(SharedInformerFactory informers, SharedIndexInformer crds, Updater crdStatus) {
        this.crds = crds;
        this.crdStatus = crdStatus;
        this.worker = new QueueWorker<>("crd-autoregister-naming", informers.newRateLimitingQueue("crd_naming_condition_controller"),
                this::sync).start();
        this.registration = crds.addEventHandler(Handlers.onAny(this::enqueueGroup));
    }

    public void stop() {
        registration.close();
        worker.stop();
    }

    private void enqueueGroup(ObjectNode changed) {
        String group = Crds.group(changed);
        worker.queue().add(Crds.name(changed));
        for (ObjectNode crd : crds.lister().list()) {
            if (Crds.group(crd).equals(group)) {
                worker.queue().add(Crds.name(crd));
            }
        }
    }

    void sync(String name) {
        ObjectNode cached = crds.lister().get(name).orElse(null);
        if (cached == null) {
            return;
        }
        ObjectNode computed = cached.deepCopy();
        if (!calculate(computed, crds.lister().list())) {
            return;
        }
        try {
            crdStatus.update(RequestContext.system(""), name, (ctx, current) -> {
                if (current == null) {
                    throw StatusException.notFound(io.kubelix.api.schema.GroupResource.of(Crds.GROUP,
                            "customresourcedefinitions"), name);
                }
                ObjectNode updated = current.deepCopy();
                calculate(updated, crds.lister().list());
                return updated;
            }, new UpdateOptions(false, "kube-apiserver"));
            LOG.info("CRD {}: names {}", name, Crds.conditionTrue(computed, Crds.NAMES_ACCEPTED) ? "accepted"
                    : "not accepted: " + Crds.condition(computed, Crds.NAMES_ACCEPTED).path("message").asText());
        } catch (StatusException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }

    /**
     * kube's calculateNamesAndConditions, applied to {@code crd} in place: its accepted names and its
     * NamesAccepted and Established conditions, given every CRD the server has.
     *
     * @return whether anything changed
     */
    static boolean calculate(ObjectNode crd, List<ObjectNode> all) {
        String self = Crds.name(crd);
        String group = Crds.group(crd);
        Set<String> resources = new HashSet<>();
        Set<String> kinds = new HashSet<>();
        for (ObjectNode other : all) {
            if (Crds.name(other).equals(self) || !Crds.group(other).equals(group)) {
                continue;
            }
            JsonNode accepted = other.path("status").path("acceptedNames");
            resources.add(accepted.path("plural").asText(""));
            resources.add(accepted.path("singular").asText(""));
            accepted.path("shortNames").forEach(s -> resources.add(s.asText()));
            kinds.add(accepted.path("kind").asText(""));
            kinds.add(accepted.path("listKind").asText(""));
        }
        resources.remove("");
        kinds.remove("");

        JsonNode requested = crd.path("spec").path("names");
        ObjectNode status = crd.get("status") instanceof ObjectNode s ? s : crd.putObject("status");
        ObjectNode before = status.deepCopy();
        JsonNode accepted = status.path("acceptedNames").deepCopy();
        ObjectNode names = status.putObject("acceptedNames");
        String conflictReason = null;
        String conflictMessage = null;
        String[][] fields = {{"plural", "PluralConflict", "r"}, {"singular", "SingularConflict", "r"},
                {"kind", "KindConflict", "k"}, {"listKind", "ListKindConflict", "k"}};
        for (String[] f : fields) {
            String want = requested.path(f[0]).asText("");
            String have = accepted.path(f[0]).asText("");
            String error = acceptedOrFresh(want, have, f[2].equals("r") ? resources : kinds);
            if (error == null) {
                if (!want.isEmpty()) {
                    names.put(f[0], want);
                }
            } else {
                if (!have.isEmpty()) {
                    names.put(f[0], have);
                }
                // as in kube, a later conflict's condition replaces an earlier one's
                conflictReason = f[1];
                conflictMessage = error;
            }
            if (f[0].equals("singular")) {
                String shortError = shortNames(requested.path("shortNames"), accepted.path("shortNames"), resources, names);
                if (shortError != null) {
                    conflictReason = "ShortNamesConflict";
                    conflictMessage = shortError;
                }
            }
        }
        if (requested.path("categories").size() > 0) {
            names.set("categories", requested.path("categories").deepCopy());
        }
        boolean namesAccepted = conflictReason == null;
        if (namesAccepted) {
            Crds.setCondition(crd, Crds.NAMES_ACCEPTED, "True", "NoConflicts", "no conflicts found");
        } else {
            Crds.setCondition(crd, Crds.NAMES_ACCEPTED, "False", conflictReason, conflictMessage);
        }
        JsonNode established = Crds.condition(crd, Crds.ESTABLISHED);
        if (established == null) {
            Crds.setCondition(crd, Crds.ESTABLISHED, "False", "NotAccepted", "not all names are accepted");
        }
        if (!Crds.conditionTrue(crd, Crds.ESTABLISHED) && namesAccepted) {
            Crds.setCondition(crd, Crds.ESTABLISHED, "False", "Installing", "the initial names have been accepted");
        }
        return !Objects.equals(before, status);
    }

    /** kube's equalToAcceptedOrFresh: null when the name may be accepted, else why not. */
    private static String acceptedOrFresh(String requested, String accepted, Set<String> used) {
        if (requested.equals(accepted) || !used.contains(requested)) {
            return null;
        }
        return "\"" + requested + "\" is already in use";
    }

    /** The short names: accepted all together when none conflicts, as kube does; null when accepted. */
    private static String shortNames(JsonNode requested, JsonNode accepted, Set<String> used, ObjectNode names) {
        if (requested.equals(accepted) || requested.isMissingNode() && accepted.isMissingNode()) {
            if (accepted.size() > 0) {
                names.set("shortNames", accepted.deepCopy());
            }
            return null;
        }
        Set<String> existing = new HashSet<>();
        accepted.forEach(s -> existing.add(s.asText()));
        List<String> errors = new ArrayList<>();
        for (JsonNode s : requested) {
            if (!existing.contains(s.asText()) && used.contains(s.asText())) {
                errors.add("\"" + s.asText() + "\" is already in use");
            }
        }
        if (!errors.isEmpty()) {
            if (accepted.size() > 0) {
                names.set("shortNames", accepted.deepCopy());
            }
            return errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]";
        }
        if (requested.size() > 0) {
            ArrayNode a = names.putArray("shortNames");
            requested.forEach(s -> a.add(s.asText()));
        }
        return null;
    }
}
