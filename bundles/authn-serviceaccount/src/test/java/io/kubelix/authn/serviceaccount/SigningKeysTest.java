package io.kubelix.authn.serviceaccount;

import io.kubelix.api.authn.TokenIssuer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.interfaces.RSAPrivateCrtKey;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SigningKeysTest {
    private static final TokenIssuer.ServiceAccount BOT = new TokenIssuer.ServiceAccount("team", "bot", "uid-bot");

    @TempDir
    Path dir;

    @Test
    void theKeyIsCreatedOnceOwnerOnlyAndReused() throws Exception {
        SigningKeys first = SigningKeys.load(settings(null, null));
        Path file = dir.resolve("data").resolve(SigningKeys.GENERATED_FILE);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        String pem = Files.readString(file);
        assertTrue(pem.startsWith("-----BEGIN PRIVATE KEY-----\n"), pem);

        SigningKeys again = SigningKeys.load(settings(null, null));
        assertEquals(pem, Files.readString(file));
        assertEquals(first.keyId(), again.keyId());
        // a token signed before a restart still authenticates after it
        TokensFixture before = new TokensFixture(settings(null, null));
        String token = before.issuer().issue(BOT, List.of(), 3600, null).token();
        TokensFixture after = new TokensFixture(settings(null, null));
        after.now = before.now;
        assertTrue(after.authenticator().authenticate(TokensFixture.bearer(token)).isPresent());
    }

    @Test
    void aNamedSigningKeyIsUsedAndNoKeyIsGenerated() throws Exception {
        Path key = dir.resolve("sa.key");
        Files.writeString(key, PemKeys.encode(SigningKeys.readOrCreate(dir.resolve("elsewhere/k"))));
        SigningKeys keys = SigningKeys.load(settings(key, null));
        assertEquals(key.toString(), keys.source());
        assertTrue(Files.notExists(dir.resolve("data").resolve(SigningKeys.GENERATED_FILE)));
    }

    @Test
    void aPkcs1KeyIsRead() throws Exception {
        RSAPrivateCrtKey key = SigningKeys.readOrCreate(dir.resolve("k"));
        // a PKCS#8 RSA key ends with the PKCS#1 key it wraps, after the 26-byte header of a 2048-bit key
        byte[] pkcs8 = key.getEncoded();
        byte[] pkcs1 = Arrays.copyOfRange(pkcs8, 26, pkcs8.length);
        assertEquals(key, PemKeys.parse("-----BEGIN RSA PRIVATE KEY-----\n"
                + java.util.Base64.getMimeEncoder().encodeToString(pkcs1) + "\n-----END RSA PRIVATE KEY-----\n", "t")
                .privateKey());
    }

    @Test
    void keysOfTheKeyFileVerifyToo() throws Exception {
        TokensFixture other = new TokensFixture(dir.resolve("other"), null);
        Path keyFile = dir.resolve("verify.pem");
        String publicPem = "-----BEGIN PUBLIC KEY-----\n" + java.util.Base64.getMimeEncoder()
                .encodeToString(other.keys.verification().get(0).getEncoded()) + "\n-----END PUBLIC KEY-----\n";
        Files.writeString(keyFile, publicPem);
        TokensFixture f = new TokensFixture(settings(null, keyFile));
        String foreign = other.issuer().issue(BOT, List.of(), 3600, null).token();
        f.now = other.now;
        assertTrue(f.authenticator().authenticate(TokensFixture.bearer(foreign)).isPresent());
        assertNotEquals(other.keys.keyId(), f.keys.keyId());
    }

    @Test
    void aMalformedOrMissingKeyFileIsAClearError() throws Exception {
        Path bad = dir.resolve("bad.key");
        Files.writeString(bad, "not a key\n");
        KeyFileException e = assertThrows(KeyFileException.class, () -> SigningKeys.load(settings(bad, null)));
        assertEquals("--service-account-signing-key-file " + bad + ": no PEM RSA key found (expected a "
                + "\"PRIVATE KEY\", \"RSA PRIVATE KEY\" or \"PUBLIC KEY\" block)", e.getMessage());
        assertEquals(0, e.getStackTrace().length);

        Files.writeString(bad, "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n");
        e = assertThrows(KeyFileException.class, () -> SigningKeys.load(settings(bad, null)));
        assertTrue(e.getMessage().contains("the private key is not a valid RSA key"), e.getMessage());

        Path missing = dir.resolve("missing.key");
        e = assertThrows(KeyFileException.class, () -> SigningKeys.load(settings(missing, null)));
        assertTrue(e.getMessage().startsWith("--service-account-signing-key-file " + missing + ": cannot read the file"),
                e.getMessage());
    }

    private ServiceAccountSettings settings(Path signingKey, Path keyFile) {
        return new ServiceAccountSettings(TokensFixture.ISSUER, signingKey, keyFile, dir.resolve("data"), null);
    }
}
