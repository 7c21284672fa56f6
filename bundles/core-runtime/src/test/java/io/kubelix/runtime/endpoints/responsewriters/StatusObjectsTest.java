package io.kubelix.runtime.endpoints.responsewriters;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.storage.ContinueToken;
import io.kubelix.api.storage.StorageErrors;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatusObjectsTest {

    @Test
    void anExpiredContinueTokensStatusCarriesTheOfferedTokenInItsListMeta() {
        ContinueToken expired = ContinueToken.after("/configmaps", 7, "/configmaps/default/a");
        StatusException gone = StorageErrors.continueExpired(expired);

        ObjectNode status = StatusObjects.failure(gone);

        assertEquals(410, status.path("code").asInt());
        assertEquals("Expired", status.path("reason").asText());
        String offered = status.path("metadata").path("continue").asText();
        assertEquals(gone.continueToken(), offered);
        assertEquals(new ContinueToken(ContinueToken.LATEST, "default/a\u0000"), ContinueToken.decode(offered));
    }

    @Test
    void otherFailuresHaveEmptyListMeta() {
        ObjectNode status = StatusObjects.failure(StatusException.badRequest("no"));

        assertTrue(status.path("metadata").isObject() && status.path("metadata").isEmpty(), status.toString());
    }
}
