package io.kubelix.resource.certificates;

import com.fasterxml.jackson.databind.JsonNode;
import io.kubelix.api.registry.HumanDuration;
import io.kubelix.api.registry.TableColumn;

import java.time.Duration;
import java.util.List;

/** kube's CertificateSigningRequest columns: NAME, AGE, SIGNERNAME, REQUESTOR, REQUESTEDDURATION, CONDITION. */
final class CSRPrinters {
    private CSRPrinters() {
    }

    static List<TableColumn> columns() {
        return List.of(TableColumn.nameColumn(),
                TableColumn.ageColumn(),
                new TableColumn("SignerName", "string", "", "The signer the certificate is requested from.", 0,
                        o -> orNone(o.path("spec").path("signerName").asText(""))),
                new TableColumn("Requestor", "string", "", "The user who created the request.", 0,
                        o -> o.path("spec").path("username").asText("")),
                new TableColumn("RequestedDuration", "string", "", "The validity duration the request asks for.", 0,
                        CSRPrinters::requestedDuration),
                new TableColumn("Condition", "string", "", "Whether the request is approved or denied, has failed, "
                        + "and whether the certificate is issued.", 0, CSRConditions::summary));
    }

    private static String requestedDuration(JsonNode csr) {
        JsonNode seconds = csr.path("spec").get("expirationSeconds");
        return seconds == null || seconds.isNull() ? "<none>" : HumanDuration.format(Duration.ofSeconds(seconds.asLong()));
    }

    private static String orNone(String s) {
        return s.isEmpty() ? "<none>" : s;
    }
}
