package io.kubelix.authn.serviceaccount;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The key tokens are signed with, and the keys they are verified with.
 *
 * <p>The signing key is {@code --service-account-signing-key-file}, else the private key of
 * {@code --service-account-key-file}, else {@value #GENERATED_FILE} in the data directory,
 * written (RSA 2048, PKCS#8 PEM, mode 0600) the first time and reused after. Tokens verify with
 * the signing key and every key of {@code --service-account-key-file}, as kube's do.
 *
 * @param signing      the signing key
 * @param keyId        the {@code kid} of issued tokens: kube's, the unpadded base64url SHA-256
 *                     of the public key's DER
 * @param verification the public keys a token's signature may match
 * @param source       where the signing key came from, for the log
 */
record SigningKeys(RSAPrivateCrtKey signing, String keyId, List<RSAPublicKey> verification, String source) {

    static final String GENERATED_FILE = "service-account.key";

    /** @throws KeyFileException when a named key file is missing, unreadable or holds no usable key */
    static SigningKeys load(ServiceAccountSettings settings) {
        PemKeys.Contents keyFile = settings.keyFile() == null ? null
                : read(settings.keyFile(), "--service-account-key-file");
        RSAPrivateCrtKey signing;
        String source;
        if (settings.signingKeyFile() != null) {
            signing = read(settings.signingKeyFile(), "--service-account-signing-key-file").privateKey();
            if (signing == null) {
                throw new KeyFileException("--service-account-signing-key-file " + settings.signingKeyFile()
                        + ": holds no private key");
            }
            source = settings.signingKeyFile().toString();
        } else if (keyFile != null && keyFile.privateKey() != null) {
            signing = keyFile.privateKey();
            source = settings.keyFile().toString();
        } else {
            Path generated = settings.dataDir().resolve(GENERATED_FILE);
            signing = readOrCreate(generated);
            source = generated.toString();
        }
        List<RSAPublicKey> verification = new ArrayList<>();
        verification.add(PemKeys.publicKey(signing));
        if (keyFile != null) {
            verification.addAll(keyFile.publicKeys());
        }
        return new SigningKeys(signing, keyId(verification.get(0)), List.copyOf(verification), source);
    }

    private static PemKeys.Contents read(Path file, String flag) {
        String source = flag + " " + file;
        try {
            return PemKeys.parse(Files.readString(file, StandardCharsets.US_ASCII), source);
        } catch (IOException e) {
            throw new KeyFileException(source + ": cannot read the file (" + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
        }
    }

    /** The generated key, created on first use; a second writer racing this one loses and reads the winner's. */
    static RSAPrivateCrtKey readOrCreate(Path file) {
        if (!Files.exists(file)) {
            try {
                Files.createDirectories(file.getParent());
                Path tmp = Files.createTempFile(file.getParent(), GENERATED_FILE, ".tmp",
                        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                try {
                    Files.writeString(tmp, PemKeys.encode(generate()), StandardCharsets.US_ASCII);
                    Files.move(tmp, file);
                } finally {
                    Files.deleteIfExists(tmp);
                }
            } catch (FileAlreadyExistsException e) {
                // another start wrote it first
            } catch (IOException e) {
                throw new KeyFileException(file + ": cannot write the service account signing key (" + e + ")");
            }
        }
        RSAPrivateCrtKey key = read(file, "service account signing key").privateKey();
        if (key == null) {
            throw new KeyFileException("service account signing key " + file + ": holds no private key");
        }
        return key;
    }

    private static RSAPrivateCrtKey generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return (RSAPrivateCrtKey) generator.generateKeyPair().getPrivate();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("RSA is not available", e);
        }
    }

    static String keyId(RSAPublicKey key) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(key.getEncoded());
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is not available", e);
        }
    }
}
