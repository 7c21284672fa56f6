package io.kubelix.runtime.registry;

import java.security.SecureRandom;

/** names.SimpleNameGenerator: {@code generateName} plus five random characters that avoid vowels and look-alikes. */
final class NameGenerator {
    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
    private static final int RANDOM_LENGTH = 5;
    private static final int MAX_NAME_LENGTH = 63;
    private static final SecureRandom RANDOM = new SecureRandom();

    private NameGenerator() {
    }

    static String generate(String base) {
        int maxBase = MAX_NAME_LENGTH - RANDOM_LENGTH;
        String b = base.length() > maxBase ? base.substring(0, maxBase) : base;
        StringBuilder s = new StringBuilder(b);
        for (int i = 0; i < RANDOM_LENGTH; i++) {
            s.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return s.toString();
    }
}
