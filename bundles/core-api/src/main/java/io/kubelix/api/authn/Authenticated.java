package io.kubelix.api.authn;

import io.kubelix.api.request.UserInfo;

import java.util.List;

/**
 * authenticator.Response: who credentials authenticate as, and the audiences they are meant for
 * among those they were checked against ({@code status.audiences} of a TokenReview).
 */
public record Authenticated(UserInfo user, List<String> audiences) {
    public Authenticated {
        audiences = List.copyOf(audiences);
    }
}
