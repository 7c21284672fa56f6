package io.kubelix.authn.serviceaccount;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * RSA keys in PEM, as kube-apiserver's key files hold them: {@code PRIVATE KEY} (PKCS#8),
 * {@code RSA PRIVATE KEY} (PKCS#1) and {@code PUBLIC KEY} (X.509 SubjectPublicKeyInfo).
 */
final class PemKeys {
    private static final Pattern BLOCK = Pattern.compile(
            "-----BEGIN ([A-Z ]+)-----\\s*([A-Za-z0-9+/=\\s]*?)\\s*-----END \\1-----");
    /** AlgorithmIdentifier { rsaEncryption, NULL }, DER. */
    private static final byte[] RSA_ALGORITHM = {0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86,
            (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00};

    /** @param privateKey the private key, or null when the file holds only public keys */
    record Contents(RSAPrivateCrtKey privateKey, List<RSAPublicKey> publicKeys) {
    }

    private PemKeys() {
    }

    /**
     * Every RSA key in {@code pem}; a private key also counts as its public key.
     *
     * @param source names the file in error messages
     * @throws KeyFileException when there is no key, or a block is not an RSA key
     */
    static Contents parse(String pem, String source) {
        Matcher m = BLOCK.matcher(pem);
        RSAPrivateCrtKey privateKey = null;
        List<RSAPublicKey> publicKeys = new ArrayList<>();
        while (m.find()) {
            byte[] der;
            try {
                der = Base64.getMimeDecoder().decode(m.group(2));
            } catch (IllegalArgumentException e) {
                throw new KeyFileException(source + ": the " + m.group(1) + " block is not valid base64");
            }
            switch (m.group(1)) {
                case "PRIVATE KEY", "RSA PRIVATE KEY" -> {
                    RSAPrivateCrtKey key = privateKey(m.group(1).startsWith("RSA") ? pkcs8(der) : der, source);
                    privateKey = privateKey == null ? key : privateKey;
                    publicKeys.add(publicKey(key));
                }
                case "PUBLIC KEY" -> publicKeys.add(publicKey(der, source));
                default -> {
                    // certificates and other blocks are not keys; kube skips them too
                }
            }
        }
        if (publicKeys.isEmpty()) {
            throw new KeyFileException(source + ": no PEM RSA key found (expected a \"PRIVATE KEY\", "
                    + "\"RSA PRIVATE KEY\" or \"PUBLIC KEY\" block)");
        }
        return new Contents(privateKey, List.copyOf(publicKeys));
    }

    /** A PKCS#8 PEM block of {@code key}, 64 characters a line. */
    static String encode(RSAPrivateCrtKey key) {
        String body = Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(key.getEncoded());
        return "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----\n";
    }

    static RSAPublicKey publicKey(RSAPrivateCrtKey key) {
        try {
            return (RSAPublicKey) KeyFactory.getInstance("RSA")
                    .generatePublic(new RSAPublicKeySpec(key.getModulus(), key.getPublicExponent()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("RSA is not available", e);
        }
    }

    private static RSAPrivateCrtKey privateKey(byte[] pkcs8, String source) {
        try {
            if (KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(pkcs8))
                    instanceof RSAPrivateCrtKey key) {
                return key;
            }
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            // below
        }
        throw new KeyFileException(source + ": the private key is not a valid RSA key "
                + "(service account tokens are signed with RS256)");
    }

    private static RSAPublicKey publicKey(byte[] spki, String source) {
        try {
            return (RSAPublicKey) KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(spki));
        } catch (GeneralSecurityException | IllegalArgumentException | ClassCastException e) {
            throw new KeyFileException(source + ": the public key is not a valid RSA key "
                    + "(service account tokens are signed with RS256)");
        }
    }

    /** PKCS#1 RSAPrivateKey wrapped in a PKCS#8 PrivateKeyInfo, which the JDK reads. */
    static byte[] pkcs8(byte[] pkcs1) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(new byte[] {0x02, 0x01, 0x00});
        body.writeBytes(RSA_ALGORITHM);
        body.writeBytes(derHeader(0x04, pkcs1.length));
        body.writeBytes(pkcs1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(derHeader(0x30, body.size()));
        out.writeBytes(body.toByteArray());
        return out.toByteArray();
    }

    private static byte[] derHeader(int tag, int length) {
        if (length < 0x80) {
            return new byte[] {(byte) tag, (byte) length};
        }
        byte[] len = BigInteger.valueOf(length).toByteArray();
        int skip = len[0] == 0 ? 1 : 0;
        byte[] header = new byte[2 + len.length - skip];
        header[0] = (byte) tag;
        header[1] = (byte) (0x80 | (len.length - skip));
        System.arraycopy(len, skip, header, 2, len.length - skip);
        return header;
    }
}
