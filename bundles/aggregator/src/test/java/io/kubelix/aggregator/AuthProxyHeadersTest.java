package io.kubelix.aggregator;

import io.kubelix.api.request.UserInfo;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AuthProxyHeadersTest {

    @Test
    void theUserGroupsAndExtrasBecomeHeaders() {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("https://localhost/apis/x/v1"));
        AuthProxyHeaders.set(b, new UserInfo("alice", "42", List.of("devs", "system:authenticated"),
                Map.of("acme.com/team", List.of("blue", "green"))));
        var headers = b.build().headers();
        assertEquals(List.of("alice"), headers.allValues("X-Remote-User"));
        assertEquals(List.of("42"), headers.allValues("X-Remote-Uid"));
        assertEquals(List.of("devs", "system:authenticated"), headers.allValues("X-Remote-Group"));
        assertEquals(List.of("blue", "green"), headers.allValues("X-Remote-Extra-acme.com%2Fteam"));
    }

    @Test
    void extraKeysArePercentEncodedWhereAHeaderNameCannotHoldThem() {
        assertEquals("scopes", AuthProxyHeaders.escapeKey("scopes"));
        assertEquals("a%25b%20c%3D%C3%A9", AuthProxyHeaders.escapeKey("a%b c=é"));
    }

    @Test
    void theClientsCredentialsAndUserHeadersNeverReachTheExtensionServer() {
        for (String h : List.of("Authorization", "Impersonate-User", "impersonate-group", "X-Remote-User",
                "X-Remote-Group", "x-remote-extra-scopes", "Connection", "Upgrade", "Transfer-Encoding", "Host",
                "Content-Length", "Expect")) {
            assertTrue(AuthProxyHeaders.dropped(h), h);
        }
        for (String h : List.of("Accept", "Content-Type", "User-Agent", "Accept-Encoding", "Audit-ID")) {
            assertFalse(AuthProxyHeaders.dropped(h), h);
        }
    }
}
