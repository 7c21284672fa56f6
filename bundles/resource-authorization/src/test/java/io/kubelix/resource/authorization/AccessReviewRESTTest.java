package io.kubelix.resource.authorization;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.SubjectRules;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The access and rules reviews: what is asked of the authorization chain, and kube's answers. */
class AccessReviewRESTTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CreateOptions OPTIONS = new CreateOptions(false, "kubectl");

    private final List<UserInfo> askedUsers = new ArrayList<>();
    private final List<RequestInfo> askedRequests = new ArrayList<>();
    private final AuthorizationChain chain = new AuthorizationChain() {
        @Override
        public AuthorizationDecision authorize(UserInfo user, RequestInfo request) {
            askedUsers.add(user);
            askedRequests.add(request);
            if (request.verb().equals("delete")) {
                return AuthorizationDecision.deny("deletes are denied");
            }
            return user.name().equals("alice") ? AuthorizationDecision.allow("RBAC: allowed")
                    : AuthorizationDecision.noOpinion();
        }

        @Override
        public SubjectRules rulesFor(UserInfo user, String namespace) {
            return new SubjectRules(List.of(new SubjectRules.ResourceRule(List.of("get"), List.of(""),
                    List.of("pods"), List.of("web"))), List.of(new SubjectRules.NonResourceRule(List.of("get"),
                    List.of("/api"))), true, "webhook does not list rules");
        }
    };

    @Test
    void aSelfReviewAsksAboutTheRequester() throws Exception {
        AccessReviewREST self = new AccessReviewREST(AccessReviewREST.Kind.SELF, chain);

        ObjectNode answer = self.create(context("alice", ""), review("{\"spec\":{\"resourceAttributes\":{"
                + "\"namespace\":\"ns\",\"verb\":\"get\",\"group\":\"apps\",\"resource\":\"deployments\","
                + "\"subresource\":\"scale\",\"name\":\"web\"}}}"), OPTIONS);

        assertTrue(answer.path("status").path("allowed").asBoolean(), answer::toString);
        assertFalse(answer.path("status").has("denied"), answer::toString);
        assertEquals("RBAC: allowed", answer.path("status").path("reason").asText());
        assertEquals("alice", askedUsers.get(0).name());
        RequestInfo asked = askedRequests.get(0);
        assertTrue(asked.resourceRequest());
        assertEquals(List.of("get", "apps", "ns", "deployments", "scale", "web"), List.of(asked.verb(),
                asked.apiGroup(), asked.namespace(), asked.resource(), asked.subresource(), asked.name()));
    }

    @Test
    void aSubjectReviewAsksAboutItsUserAndReportsADenial() throws Exception {
        AccessReviewREST review = new AccessReviewREST(AccessReviewREST.Kind.SUBJECT, chain);

        ObjectNode answer = review.create(context("admin", ""), review("{\"spec\":{\"user\":\"bob\",\"groups\":"
                + "[\"devs\"],\"extra\":{\"scopes\":[\"a\"]},\"nonResourceAttributes\":{\"path\":\"/metrics\","
                + "\"verb\":\"delete\"}}}"), OPTIONS);

        assertFalse(answer.path("status").path("allowed").asBoolean(), answer::toString);
        assertTrue(answer.path("status").path("denied").asBoolean(), answer::toString);
        assertEquals(new UserInfo("bob", "", List.of("devs"), Map.of("scopes", List.of("a"))), askedUsers.get(0));
        assertFalse(askedRequests.get(0).resourceRequest());
        assertEquals("/metrics", askedRequests.get(0).path());
    }

    @Test
    void reviewsAreValidatedAsKubeValidatesThem() throws Exception {
        AccessReviewREST subject = new AccessReviewREST(AccessReviewREST.Kind.SUBJECT, chain);
        StatusException neither = assertThrows(StatusException.class,
                () -> subject.create(context("admin", ""), review("{\"spec\":{\"user\":\"bob\"}}"), OPTIONS));
        assertEquals(422, neither.code());
        assertTrue(neither.getMessage().contains("spec.resourceAttributes: Invalid value: \"null\": exactly one of "
                + "nonResourceAttributes or resourceAttributes must be specified"), neither.getMessage());
        StatusException nobody = assertThrows(StatusException.class, () -> subject.create(context("admin", ""),
                review("{\"spec\":{\"nonResourceAttributes\":{\"path\":\"/\",\"verb\":\"get\"}}}"), OPTIONS));
        assertTrue(nobody.getMessage().contains("at least one of user or group must be specified"), nobody.getMessage());

        AccessReviewREST local = new AccessReviewREST(AccessReviewREST.Kind.LOCAL, chain);
        StatusException otherNamespace = assertThrows(StatusException.class, () -> local.create(context("admin", "a"),
                review("{\"spec\":{\"user\":\"bob\",\"resourceAttributes\":{\"namespace\":\"b\",\"verb\":\"get\"}}}"),
                OPTIONS));
        assertTrue(otherNamespace.getMessage().contains("spec.resourceAttributes.namespace: Invalid value: \"b\": "
                + "must match metadata.namespace"), otherNamespace.getMessage());
        assertTrue(askedRequests.isEmpty(), "nothing invalid reaches the authorizers");
    }

    @Test
    void aRulesReviewListsTheRequestersRules() throws Exception {
        RulesReviewREST rules = new RulesReviewREST(chain);

        ObjectNode answer = rules.create(context("alice", ""), review("{\"spec\":{\"namespace\":\"ns\"}}"), OPTIONS);

        assertEquals("{\"resourceRules\":[{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\"],"
                + "\"resourceNames\":[\"web\"]}],\"nonResourceRules\":[{\"verbs\":[\"get\"],\"nonResourceURLs\":"
                + "[\"/api\"]}],\"incomplete\":true,\"evaluationError\":\"webhook does not list rules\"}",
                answer.path("status").toString());
        assertEquals(400, assertThrows(StatusException.class, () -> rules.create(context("alice", ""),
                review("{\"spec\":{}}"), OPTIONS)).code());
    }

    private static ObjectNode review(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json);
    }

    private static RequestContext context(String user, String namespace) {
        UserInfo info = new UserInfo(user, "", List.of(UserInfo.ALL_AUTHENTICATED), Map.of());
        return new RequestContext() {
            @Override
            public UserInfo user() {
                return info;
            }

            @Override
            public RequestInfo requestInfo() {
                return null;
            }

            @Override
            public String namespace() {
                return namespace;
            }

            @Override
            public void addWarning(String message) {
            }
        };
    }
}
