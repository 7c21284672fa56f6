package io.kubelix.admission.podsecurity;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Pod Security Standards level at a policy version (kube's {@code api.LevelVersion}), written
 * {@code restricted:latest} or {@code baseline:v1.30}.
 *
 * @param level   the level
 * @param version the policy version's minor (major is always 1), or {@link #LATEST}
 */
record LevelVersion(Level level, int version) {
    /** The version {@code latest}: newer than every numbered version. */
    static final int LATEST = Integer.MAX_VALUE;
    static final LevelVersion PRIVILEGED_LATEST = new LevelVersion(Level.PRIVILEGED, LATEST);

    private static final Pattern VERSION = Pattern.compile("^v1\\.([0-9]|[1-9][0-9]*)$");

    /** The three levels, least restrictive first (kube's {@code CompareLevels} order). */
    enum Level {
        PRIVILEGED, BASELINE, RESTRICTED;

        String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** kube's {@code ParseLevel}; null when {@code value} is not a level. */
        static Level parse(String value) {
            return switch (value) {
                case "privileged" -> PRIVILEGED;
                case "baseline" -> BASELINE;
                case "restricted" -> RESTRICTED;
                default -> null;
            };
        }
    }

    /** kube's {@code ParseVersion}: {@code latest} or {@code v1.<minor>}; null when it is neither. */
    static Integer parseVersion(String value) {
        if ("latest".equals(value)) {
            return LATEST;
        }
        Matcher m = VERSION.matcher(value);
        if (!m.matches()) {
            return null;
        }
        try {
            return Integer.parseInt(m.group(1));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static String versionString(int version) {
        return version == LATEST ? "latest" : "v1." + version;
    }

    LevelVersion withLevel(Level l) {
        return new LevelVersion(l, version);
    }

    LevelVersion withVersion(int v) {
        return new LevelVersion(level, v);
    }

    @Override
    public String toString() {
        return level.label() + ":" + versionString(version);
    }
}
