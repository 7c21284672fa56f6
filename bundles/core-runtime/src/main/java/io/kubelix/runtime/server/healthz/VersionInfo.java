package io.kubelix.runtime.server.healthz;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Properties;

/**
 * The {@code /version} document (version.Info): the Kubernetes API level Kubelix implements and
 * its own version as build metadata, {@code v1.32.0+kubelix.0.1.0}.
 */
public final class VersionInfo {
    private final ObjectNode info;

    public VersionInfo() {
        Properties p = new Properties();
        try (InputStream in = VersionInfo.class.getResourceAsStream("/io/kubelix/runtime/server/version.properties")) {
            if (in == null) {
                throw new IllegalStateException("version.properties is missing from core-runtime");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String major = p.getProperty("kubernetes.major");
        String minor = p.getProperty("kubernetes.minor");
        info = JsonNodeFactory.instance.objectNode();
        info.put("major", major);
        info.put("minor", minor);
        info.put("gitVersion", "v" + major + "." + minor + ".0+kubelix." + p.getProperty("kubelix.version"));
        info.put("gitCommit", "");
        info.put("gitTreeState", "");
        info.put("buildDate", p.getProperty("build.date"));
        info.put("goVersion", "java" + Runtime.version().feature() + "." + Runtime.version().interim() + "."
                + Runtime.version().update());
        info.put("compiler", "javac");
        info.put("platform", platform());
    }

    public ObjectNode document() {
        return info.deepCopy();
    }

    public String gitVersion() {
        return info.get("gitVersion").asText();
    }

    private static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String goos = os.startsWith("linux") ? "linux" : os.startsWith("mac") ? "darwin" : os.startsWith("windows") ? "windows" : os;
        String arch = System.getProperty("os.arch", "");
        String goarch = switch (arch) {
            case "amd64", "x86_64" -> "amd64";
            case "aarch64" -> "arm64";
            default -> arch;
        };
        return goos + "/" + goarch;
    }
}
