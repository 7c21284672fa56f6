package io.kubelix.api.errors;

import io.kubelix.api.schema.GroupResource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class StatusExceptionTest {

    @Test
    void notFoundNamesTheResourceAsKubeApiserverDoes() {
        StatusException e = StatusException.notFound(GroupResource.of("apps", "deployments"), "web");
        assertEquals(404, e.code());
        assertEquals("NotFound", e.reason().wireName());
        assertEquals("deployments.apps \"web\" not found", e.getMessage());
        assertEquals("deployments", e.details().kind());
        assertEquals("apps", e.details().group());
    }

    @Test
    void invalidListsEveryFieldAsACause() {
        StatusException e = StatusException.invalid("ConfigMap", "", "x", List.of(
                FieldError.invalid("metadata.name", "X", "must be lower case"),
                FieldError.required("data", "")));
        assertEquals(422, e.code());
        assertEquals("ConfigMap \"x\" is invalid: [metadata.name: Invalid value: \"X\": must be lower case, "
                + "data: Required value]", e.getMessage());
        assertEquals(2, e.details().causes().size());
        assertEquals("FieldValueInvalid", e.details().causes().get(0).type());
        assertEquals("metadata.name", e.details().causes().get(0).field());
        assertEquals("FieldValueRequired", e.details().causes().get(1).type());
        // as field.Error.ErrorBody: kubectl prints "<field>: <message>", so the message omits the field
        assertEquals("Invalid value: \"X\": must be lower case", e.details().causes().get(0).message());
        assertEquals("Required value", e.details().causes().get(1).message());
    }

    @Test
    void tooLongAndRequiredMessagesOmitTheValue() {
        assertEquals("data: Too long: must have at most 1048576 bytes",
                FieldError.tooLong("data", "x".repeat(10), 1048576).message());
        assertEquals("spec.x: Forbidden: not allowed", new FieldError(FieldError.Type.FORBIDDEN, "spec.x", "v",
                "not allowed").message());
    }

    @Test
    void conflictWordsTheOptimisticConcurrencyFailure() {
        StatusException e = StatusException.conflict(GroupResource.of("", "configmaps"), "c",
                "the object has been modified; please apply your changes to the latest version and try again");
        assertEquals(409, e.code());
        assertEquals("Conflict", e.reason().wireName());
        assertEquals("Operation cannot be fulfilled on configmaps \"c\": the object has been modified; please apply "
                + "your changes to the latest version and try again", e.getMessage());
    }
}
