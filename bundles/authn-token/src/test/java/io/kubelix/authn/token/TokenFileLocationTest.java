package io.kubelix.authn.token;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TokenFileLocationTest {

    @Test
    void theConfigurationWins() {
        TokenFileLocation location = TokenFileLocation.resolve("/etc/kubelix/tokens.csv",
                Map.of("kubelix.token-auth-file", "/other.csv", "kubelix.data-dir", "/data")::get);
        assertEquals(Path.of("/etc/kubelix/tokens.csv"), location.path());
    }

    @Test
    void thenTheFrameworkPropertyThenTheDataDirectory() {
        assertEquals(Path.of("/other.csv"), TokenFileLocation.resolve(" ",
                Map.of("kubelix.token-auth-file", "/other.csv", "kubelix.data-dir", "/data")::get).path());
        assertEquals(Path.of("/data/tokens.csv"), TokenFileLocation.resolve(null,
                Map.of("kubelix.data-dir", "/data")::get).path());
    }

    @Test
    void otherwiseTheDefaultDataDirectoryUnderTheWorkingDirectory() {
        assertEquals(Path.of(".kubelix", "tokens.csv").toAbsolutePath(),
                TokenFileLocation.resolve("", Map.<String, String>of()::get).path());
    }
}
