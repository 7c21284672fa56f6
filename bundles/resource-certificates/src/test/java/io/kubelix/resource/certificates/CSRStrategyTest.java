package io.kubelix.resource.certificates;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CSRStrategyTest {
    private static final String CLIENT = SignerNames.KUBE_APISERVER_CLIENT;
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC);
    private static final RequestContext JANE = TestRequests.as("jane", "u-1", List.of("dev", "system:authenticated"),
            Map.of("scopes", List.of("a", "b")));

    private final CSRStrategy strategy = new CSRStrategy();

    private List<String> create(ObjectNode csr) {
        strategy.prepareForCreate(JANE, csr);
        return strategy.validate(JANE, csr).stream().map(FieldError::message).toList();
    }

    @Test
    void theRequestorIsTheUserAndTheStatusStartsEmpty() throws Exception {
        ObjectNode csr = TestRequests.csr("jane", CLIENT);
        csr.with("spec").put("username", "admin").putArray("groups").add("system:masters");
        csr.putObject("status").putArray("conditions").addObject().put("type", "Approved").put("status", "True");
        assertEquals(List.of(), create(csr));
        assertEquals("jane", csr.path("spec").path("username").asText());
        assertEquals("u-1", csr.path("spec").path("uid").asText());
        assertEquals("[\"dev\",\"system:authenticated\"]", csr.path("spec").path("groups").toString());
        assertEquals("{\"scopes\":[\"a\",\"b\"]}", csr.path("spec").path("extra").toString());
        assertEquals("{}", csr.path("status").toString());
    }

    @Test
    void refusesWhatKubeRefusesWithItsMessages() throws Exception {
        ObjectNode notPem = TestRequests.csr("a", CLIENT);
        notPem.with("spec").put("request", Base64.getEncoder().encodeToString("hello".getBytes()));
        assertEquals(List.of("spec.request: Invalid value: \"aGVsbG8=\": PEM block type must be CERTIFICATE REQUEST"),
                create(notPem));

        ObjectNode usages = TestRequests.csr("b", CLIENT);
        ((ArrayNode) usages.path("spec").path("usages")).add("flying").add("client auth");
        List<String> errs = create(usages);
        assertEquals(2, errs.size(), errs::toString);
        assertTrue(errs.get(0).startsWith("spec.usages[1]: Unsupported value: \"flying\": supported values: \"any\", "
                + "\"cert sign\", \"client auth\""), errs::toString);
        assertEquals("spec.usages[2]: Duplicate value: \"client auth\"", errs.get(1));

        ObjectNode none = TestRequests.csr("c", CLIENT);
        none.with("spec").putArray("usages");
        assertEquals(List.of("spec.usages: Required value: usages must be provided"), create(none));

        assertEquals(List.of("spec.signerName: Invalid value: \"kubernetes.io/legacy-unknown\": the legacy signerName is not "
                + "allowed via this API version"), create(TestRequests.csr("d", SignerNames.LEGACY_UNKNOWN)));
        assertEquals(List.of("spec.signerName: Required value"), create(TestRequests.csr("e", "")));
        assertEquals(List.of("spec.signerName: Invalid value: \"example\": must be a fully qualified domain and path of the "
                + "form 'example.com/signer-name'"), create(TestRequests.csr("f", "example")));
        assertEquals(List.of("spec.signerName: Invalid value: \"example\": should be a domain with at least two segments "
                + "separated by dots"), create(TestRequests.csr("g", "example/signer")));

        ObjectNode short_ = TestRequests.csr("h", CLIENT);
        short_.with("spec").put("expirationSeconds", 599);
        assertEquals(List.of("spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 600 seconds "
                + "(10 minutes)"), create(short_));
    }

    @Test
    void anUpdateOfTheResourceChangesOnlyItsMetadata() throws Exception {
        ObjectNode old = TestRequests.csr("jane", CLIENT);
        create(old);
        ObjectNode changed = old.deepCopy();
        changed.with("metadata").putObject("labels").put("team", "dev");
        changed.with("spec").put("signerName", "example.com/other");
        changed.with("status").putArray("conditions").addObject().put("type", "Approved").put("status", "True");
        strategy.prepareForUpdate(JANE, changed, old);
        assertEquals(List.of(), strategy.validateUpdate(JANE, changed, old));
        assertEquals(CLIENT, changed.path("spec").path("signerName").asText());
        assertEquals("{}", changed.path("status").toString());
        assertEquals("dev", changed.path("metadata").path("labels").path("team").asText());
    }

    @Test
    void approvalSetsConditionsWithTheirTimesAndTheyExcludeEachOther() throws Exception {
        CSRApprovalStrategy approval = new CSRApprovalStrategy(CLOCK);
        ObjectNode old = TestRequests.csr("jane", CLIENT);
        create(old);
        ObjectNode approved = old.deepCopy();
        approved.with("status").putArray("conditions").addObject().put("type", "Approved").put("status", "True")
                .put("reason", "KubectlApprove");
        approved.with("status").put("certificate", "aGVsbG8=");
        approval.prepareForUpdate(JANE, approved, old);
        assertEquals(List.of(), approval.validateUpdate(JANE, approved, old));
        assertEquals("2026-01-02T03:04:05Z", approved.path("status").path("conditions").path(0).path("lastUpdateTime").asText());
        assertEquals("2026-01-02T03:04:05Z", approved.path("status").path("conditions").path(0).path("lastTransitionTime").asText());
        assertTrue(approved.path("status").path("certificate").isMissingNode(), approved::toString);

        ObjectNode both = approved.deepCopy();
        ((ArrayNode) both.path("status").path("conditions")).addObject().put("type", "Denied").put("status", "True");
        approval.prepareForUpdate(JANE, both, approved);
        assertEquals(List.of("status.conditions[1].type: Invalid value: \"Denied\": Approved and Denied conditions are "
                + "mutually exclusive"), approval.validateUpdate(JANE, both, approved).stream().map(FieldError::message).toList());

        ObjectNode removed = approved.deepCopy();
        removed.with("status").putArray("conditions");
        approval.prepareForUpdate(JANE, removed, approved);
        assertEquals(List.of("status.conditions: Forbidden: updates may not remove a condition of type \"Approved\""),
                approval.validateUpdate(JANE, removed, approved).stream().map(FieldError::message).toList());

        ObjectNode twice = approved.deepCopy();
        ((ArrayNode) twice.path("status").path("conditions")).addObject().put("type", "Approved").put("status", "False");
        approval.prepareForUpdate(JANE, twice, approved);
        assertEquals(List.of("status.conditions[1].status: Unsupported value: \"False\": supported values: \"True\"",
                "status.conditions[1].type: Duplicate value: \"Approved\""),
                approval.validateUpdate(JANE, twice, approved).stream().map(FieldError::message).toList());
    }

    @Test
    void theStatusSubresourceSetsTheCertificateOnceAndCannotApprove() throws Exception {
        CSRStatusStrategy status = new CSRStatusStrategy(CLOCK);
        ObjectNode old = TestRequests.csr("jane", CLIENT);
        create(old);
        ObjectNode selfApproved = old.deepCopy();
        selfApproved.with("status").putArray("conditions").addObject().put("type", "Approved").put("status", "True");
        status.prepareForUpdate(JANE, selfApproved, old);
        assertEquals(List.of("status.conditions: Forbidden: updates may not add a condition of type \"Approved\""),
                status.validateUpdate(JANE, selfApproved, old).stream().map(FieldError::message).toList());

        ObjectNode notPem = old.deepCopy();
        notPem.with("status").put("certificate", Base64.getEncoder().encodeToString("junk".getBytes()));
        status.prepareForUpdate(JANE, notPem, old);
        assertEquals(List.of("status.certificate: Invalid value: \"<certificate data>\": must contain at least one "
                + "CERTIFICATE PEM block"), status.validateUpdate(JANE, notPem, old).stream().map(FieldError::message).toList());

        ObjectNode wrongType = old.deepCopy();
        wrongType.with("status").put("certificate", wrongType.path("spec").path("request").asText());
        status.prepareForUpdate(JANE, wrongType, old);
        assertEquals(List.of("status.certificate: Invalid value: \"<certificate data>\": only CERTIFICATE PEM blocks are "
                + "allowed, found \"CERTIFICATE REQUEST\""), status.validateUpdate(JANE, wrongType, old).stream()
                .map(FieldError::message).toList());

        String certificate = Base64.getEncoder().encodeToString(TestRequests.caPem(TestRequests.keyPair(),
                java.time.Duration.ofDays(1)));
        ObjectNode issued = old.deepCopy();
        issued.with("status").put("certificate", certificate);
        status.prepareForUpdate(JANE, issued, old);
        assertEquals(List.of(), status.validateUpdate(JANE, issued, old));

        ObjectNode reissued = issued.deepCopy();
        reissued.with("status").put("certificate", Base64.getEncoder().encodeToString(TestRequests.caPem(
                TestRequests.keyPair(), java.time.Duration.ofDays(1))));
        status.prepareForUpdate(JANE, reissued, issued);
        assertEquals(List.of("status.certificate: Forbidden: updates may not modify existing certificate content"),
                status.validateUpdate(JANE, reissued, issued).stream().map(FieldError::message).toList());
    }

    @Test
    void theConditionColumnSummarisesAsKubectlShowsIt() throws Exception {
        ObjectNode csr = TestRequests.csr("jane", CLIENT);
        assertEquals("Pending", CSRConditions.summary(csr));
        ArrayNode conditions = csr.putObject("status").putArray("conditions");
        conditions.addObject().put("type", "Approved").put("status", "True");
        csr.with("status").put("certificate", "aGVsbG8=");
        assertEquals("Approved,Issued", CSRConditions.summary(csr));
        conditions.addObject().put("type", "Failed").put("status", "True");
        assertEquals("Approved,Failed,Issued", CSRConditions.summary(csr));
        conditions.addObject().put("type", "Denied").put("status", "True");
        assertTrue(CSRConditions.summary(csr).startsWith("Denied"));
    }
}
