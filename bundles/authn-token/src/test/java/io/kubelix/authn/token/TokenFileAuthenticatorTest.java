package io.kubelix.authn.token;

import io.kubelix.api.authn.AuthenticationRequest;
import io.kubelix.api.request.UserInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenFileAuthenticatorTest {

    private static final Duration INTERVAL = Duration.ofSeconds(1);

    @TempDir
    Path temp;

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);

    @Test
    void authenticatesAKnownTokenAndNotAnUnknownOne() throws Exception {
        Path file = write("admin-token,admin,admin,\"system:masters\"\n", 1);
        TokenFileAuthenticator authenticator = authenticator(file);

        UserInfo admin = authenticator.authenticate(bearer("admin-token")).orElseThrow();
        assertEquals("admin", admin.name());
        assertEquals("admin", admin.uid());
        assertEquals(List.of("system:masters", UserInfo.ALL_AUTHENTICATED), admin.groups());

        assertEquals(Optional.empty(), authenticator.authenticate(bearer("wrong-token")));
        assertEquals(Optional.empty(), authenticator.authenticate(header(null)));
        assertEquals(Optional.empty(), authenticator.authenticate(header("Basic YWRtaW46YWRtaW4=")));
    }

    /**
     * At first start the server writes the file while this plugin starts: a file that appears is
     * used by the next request, without waiting for the interval, so the admin token works as soon
     * as the server is ready.
     */
    @Test
    void aMissingFileAcceptsNothingUntilItAppearsThenAtOnce() throws Exception {
        Path file = temp.resolve("data/tokens.csv");
        TokenFileAuthenticator authenticator = authenticator(file);
        assertEquals(Optional.empty(), authenticator.authenticate(bearer("t1")));

        write("t1,alice,alice,\n", 1);
        assertEquals("alice", authenticator.authenticate(bearer("t1")).orElseThrow().name());
    }

    @Test
    void reloadsWhenTheFileChanges() throws Exception {
        Path file = write("t1,alice,alice\n", 1);
        TokenFileAuthenticator authenticator = authenticator(file);
        assertTrue(authenticator.authenticate(bearer("t1")).isPresent());

        write("t2,bob,bob\n", 2); // same size, newer modification time
        tick();
        assertEquals(Optional.empty(), authenticator.authenticate(bearer("t1")));
        assertEquals("bob", authenticator.authenticate(bearer("t2")).orElseThrow().name());
    }

    @Test
    void aMalformedFileKeepsTheLastGoodTokens() throws Exception {
        Path file = write("t1,alice,alice\n", 1);
        TokenFileAuthenticator authenticator = authenticator(file);

        write("t1,alice,alice\nt2,bob\n", 2);
        tick();
        assertEquals("alice", authenticator.authenticate(bearer("t1")).orElseThrow().name());
        assertEquals(Optional.empty(), authenticator.authenticate(bearer("t2")));

        write("t1,alice,alice\nt2,bob,bob\n", 3);
        tick();
        assertEquals("bob", authenticator.authenticate(bearer("t2")).orElseThrow().name());
    }

    @Test
    void removingTheFileRevokesItsTokens() throws Exception {
        Path file = write("t1,alice,alice\n", 1);
        TokenFileAuthenticator authenticator = authenticator(file);

        Files.delete(file);
        tick();
        assertEquals(Optional.empty(), authenticator.authenticate(bearer("t1")));
    }

    private TokenFileAuthenticator authenticator(Path file) {
        return new TokenFileAuthenticator(new TokenFileLocation(file, "the test"), INTERVAL, clock::get);
    }

    private void tick() {
        clock.addAndGet(INTERVAL.toNanos());
    }

    /** Writes tokens.csv with a modification time {@code version} seconds after a fixed instant. */
    private Path write(String content, int version) throws Exception {
        Path file = temp.resolve("data/tokens.csv");
        if (!Files.isDirectory(file.getParent())) {
            Files.createDirectories(file.getParent());
        }
        Files.writeString(file, content);
        Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2025-01-01T00:00:00Z").plusSeconds(version)));
        return file;
    }

    private static AuthenticationRequest bearer(String token) {
        return header("Bearer " + token);
    }

    private static AuthenticationRequest header(String authorization) {
        return new AuthenticationRequest() {
            @Override
            public String header(String name) {
                return "Authorization".equalsIgnoreCase(name) ? authorization : null;
            }

            @Override
            public List<X509Certificate> peerCertificates() {
                return List.of();
            }

            @Override
            public String remoteAddress() {
                return "127.0.0.1";
            }
        };
    }
}
