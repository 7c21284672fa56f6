package io.kubelix.resource.authentication;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.UserInfo;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** TokenReview and SelfSubjectReview answer as kube's. */
class ReviewsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CreateOptions OPTIONS = new CreateOptions(false, "test");
    private static final UserInfo BOT = new UserInfo("system:serviceaccount:ns:bot", "uid-1",
            List.of("system:serviceaccounts", UserInfo.ALL_AUTHENTICATED),
            Map.of("authentication.kubernetes.io/credential-id", List.of("JTI=1")));

    private final TokenReviewREST tokenReviews = new TokenReviewREST(token -> switch (token) {
        case "good" -> Optional.of(BOT);
        case "expired" -> throw StatusException.unauthorized("token has expired");
        default -> Optional.empty();
    });

    @Test
    void aTokenReviewSaysWhoTheTokenIs() throws Exception {
        ObjectNode answer = tokenReviews.create(RequestContext.system(""), review("{\"spec\":{\"token\":\"good\"}}"),
                OPTIONS);
        assertEquals(JSON.readTree("{\"authenticated\":true,\"user\":{\"username\":\"system:serviceaccount:ns:bot\","
                + "\"uid\":\"uid-1\",\"groups\":[\"system:serviceaccounts\",\"system:authenticated\"],\"extra\":{"
                + "\"authentication.kubernetes.io/credential-id\":[\"JTI=1\"]}}}"), answer.path("status"));
    }

    @Test
    void anUnknownOrRefusedTokenIsNotAuthenticatedAndNoTokenIsABadRequest() throws Exception {
        assertEquals(JSON.readTree("{\"authenticated\":false}"), tokenReviews.create(RequestContext.system(""),
                review("{\"spec\":{\"token\":\"other\"}}"), OPTIONS).path("status"));
        assertEquals(JSON.readTree("{\"authenticated\":false,\"error\":\"token has expired\"}"),
                tokenReviews.create(RequestContext.system(""), review("{\"spec\":{\"token\":\"expired\"}}"), OPTIONS)
                        .path("status"));
        StatusException e = assertThrows(StatusException.class, () -> tokenReviews.create(RequestContext.system(""),
                review("{\"spec\":{}}"), OPTIONS));
        assertEquals(400, e.code());
        assertEquals("token is required for TokenReview in authentication", e.getMessage());
    }

    @Test
    void aSelfSubjectReviewSaysWhoTheRequesterIs() throws Exception {
        ObjectNode answer = new SelfSubjectReviewREST().create(RequestContext.system(""), review("{}"), OPTIONS);
        assertEquals("system:apiserver", answer.path("status").path("userInfo").path("username").asText());
        assertEquals(JSON.readTree("[\"system:masters\",\"system:authenticated\"]"),
                answer.path("status").path("userInfo").path("groups"));
    }

    private static ObjectNode review(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json);
    }
}
