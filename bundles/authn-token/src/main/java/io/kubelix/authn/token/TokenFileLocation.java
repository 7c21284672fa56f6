package io.kubelix.authn.token;

import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * Where the token file is: the component's {@code token-auth-file}, else the framework property
 * {@code kubelix.token-auth-file}, else {@code tokens.csv} in the framework property
 * {@code kubelix.data-dir} (where the server writes its admin token at first start), else
 * {@code .kubelix/tokens.csv}. Relative paths are resolved against the working directory.
 *
 * @param path   the absolute file
 * @param source which setting chose it, for the log
 */
record TokenFileLocation(Path path, String source) {

    static final String TOKEN_FILE_PROPERTY = "kubelix.token-auth-file";
    static final String DATA_DIR_PROPERTY = "kubelix.data-dir";
    static final String FILE_NAME = "tokens.csv";
    static final Path DEFAULT_DATA_DIR = Path.of(".kubelix");

    /**
     * @param configured        the component's {@code token-auth-file}, may be null or blank
     * @param frameworkProperty the framework's properties ({@code BundleContext::getProperty})
     */
    static TokenFileLocation resolve(String configured, UnaryOperator<String> frameworkProperty) {
        if (!blank(configured)) {
            return new TokenFileLocation(absolute(Path.of(configured.trim())),
                    "configuration " + TokenFileAuthenticator.PID + " token-auth-file");
        }
        String property = frameworkProperty.apply(TOKEN_FILE_PROPERTY);
        if (!blank(property)) {
            return new TokenFileLocation(absolute(Path.of(property.trim())), "framework property " + TOKEN_FILE_PROPERTY);
        }
        String dataDir = frameworkProperty.apply(DATA_DIR_PROPERTY);
        if (!blank(dataDir)) {
            return new TokenFileLocation(absolute(Path.of(dataDir.trim()).resolve(FILE_NAME)),
                    "framework property " + DATA_DIR_PROPERTY);
        }
        return new TokenFileLocation(absolute(DEFAULT_DATA_DIR.resolve(FILE_NAME)), "the default data directory");
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }

    private static Path absolute(Path path) {
        return path.toAbsolutePath().normalize();
    }
}
