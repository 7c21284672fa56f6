package io.kubelix.api.authz;

/**
 * An authorizer's answer.
 *
 * @param decision what it decided
 * @param reason   why, shown to the client when the request is forbidden; may be empty
 */
public record AuthorizationDecision(Decision decision, String reason) {

    public enum Decision { ALLOW, DENY, NO_OPINION }

    public static AuthorizationDecision allow(String reason) {
        return new AuthorizationDecision(Decision.ALLOW, reason);
    }

    public static AuthorizationDecision deny(String reason) {
        return new AuthorizationDecision(Decision.DENY, reason);
    }

    public static AuthorizationDecision noOpinion() {
        return new AuthorizationDecision(Decision.NO_OPINION, "");
    }
}
