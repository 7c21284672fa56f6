package io.kubelix.resource.admissionregistration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.object.LabelSelectors;
import io.kubelix.api.registry.TableColumn;

import java.util.List;

/** The server-side Table columns of the admissionregistration resources, as kube's printers define them. */
final class AdmissionPrinters {
    static final String UNSET = "<unset>";

    private AdmissionPrinters() {
    }

    /** NAME, WEBHOOKS (how many), AGE. */
    static List<TableColumn> webhookConfigurationColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Webhooks", "integer", "", "Webhooks indicates the number of webhooks registered in this "
                        + "configuration", 0, o -> (long) o.path("webhooks").size()),
                TableColumn.ageColumn());
    }

    /** NAME, MUTATIONS (how many), PARAMKIND ({@code apiVersion/kind} or {@code <unset>}), AGE. */
    static List<TableColumn> mutatingPolicyColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Mutations", "integer", "", "Mutation indicates the number of mutations rules "
                        + "defined in this configuration", 0, o -> (long) o.path("spec").path("mutations").size()),
                new TableColumn("ParamKind", "string", "", "ParamKind specifies the kind of resources used to "
                        + "parameterize this policy", 0, AdmissionPrinters::paramKind),
                TableColumn.ageColumn());
    }

    /** NAME, VALIDATIONS (how many), PARAMKIND ({@code apiVersion/kind} or {@code <unset>}), AGE. */
    static List<TableColumn> policyColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("Validations", "integer", "", "Validations indicates the number of validation rules "
                        + "defined in this configuration", 0, o -> (long) o.path("spec").path("validations").size()),
                new TableColumn("ParamKind", "string", "", "ParamKind specifies the kind of resources used to "
                        + "parameterize this policy", 0, AdmissionPrinters::paramKind),
                TableColumn.ageColumn());
    }

    /** NAME, POLICYNAME, PARAMREF ({@code namespace/name}, {@code *}/name, a selector or {@code <unset>}), AGE. */
    static List<TableColumn> bindingColumns() {
        return List.of(TableColumn.nameColumn(),
                new TableColumn("PolicyName", "string", "", "PolicyName indicates the policy definition which the "
                        + "policy binding binded to", 0, o -> o.path("spec").path("policyName").asText("")),
                new TableColumn("ParamRef", "string", "", "ParamRef indicates the param resource which sets the "
                        + "configration param", 0, AdmissionPrinters::paramRef),
                TableColumn.ageColumn());
    }

    private static String paramKind(ObjectNode o) {
        JsonNode kind = o.path("spec").get("paramKind");
        if (kind == null || kind.isNull()) {
            return UNSET;
        }
        return kind.path("apiVersion").asText("") + "/" + kind.path("kind").asText("");
    }

    private static String paramRef(ObjectNode o) {
        JsonNode ref = o.path("spec").get("paramRef");
        if (ref == null || ref.isNull()) {
            return UNSET;
        }
        String name = ref.path("name").asText("");
        if (!name.isEmpty()) {
            String namespace = ref.path("namespace").asText("");
            return (namespace.isEmpty() ? "*" : namespace) + "/" + name;
        }
        JsonNode selector = ref.get("selector");
        return selector == null || selector.isNull() ? UNSET : LabelSelectors.format(selector);
    }
}
