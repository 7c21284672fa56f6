package io.kubelix.tools.openapigen;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.ZipInputStream;

/**
 * The build-time generator of built-in types' OpenAPI schemas:
 * {@code OpenAPIGen <output.json> <definition name>...} writes an OpenAPI v3 fragment,
 * {@code {"components":{"schemas":{...}}}}, holding the named definitions
 * ({@code io.k8s.api.core.v1.ConfigMap}...) and every definition they refer to. A resource
 * bundle runs it during its build (see the {@code openapi-schemas} execution of the parent POM)
 * and loads the file with {@code ResourceSchema.load}.
 *
 * <p>It reads {@code client-java-proto}'s sources jar and {@code client-java-api}'s model
 * classes from its class path (see {@link SchemaGenerator}).
 */
public final class OpenAPIGen {
    /** A file every client-java-proto sources jar has: it locates the jar on the class path. */
    static final String PROTO_PROBE = "io/kubernetes/client/proto/V1.java";

    private OpenAPIGen() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: OpenAPIGen <output.json> <definition name>...");
        }
        Path out = Path.of(args[0]);
        List<String> roots = Arrays.asList(args).subList(1, args.length);
        ObjectNode doc = generate(roots, loader());
        Files.createDirectories(out.toAbsolutePath().getParent());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.toFile(), doc);
    }

    /** The OpenAPI v3 fragment of {@code roots} and what they refer to. */
    static ObjectNode generate(List<String> roots, ClassLoader loader) throws IOException {
        ProtoSources proto = readProto(loader);
        ObjectNode doc = new ObjectMapper().createObjectNode();
        doc.putObject("components").set("schemas", new SchemaGenerator(proto, loader).definitions(roots));
        return doc;
    }

    static ProtoSources readProto(ClassLoader loader) throws IOException {
        URL probe = loader.getResource(PROTO_PROBE);
        if (probe == null) {
            throw new IllegalStateException("io.kubernetes:client-java-proto:sources is not on the class path");
        }
        URL jar = ((JarURLConnection) probe.openConnection()).getJarFileURL();
        try (InputStream in = jar.openStream(); ZipInputStream zip = new ZipInputStream(in)) {
            return ProtoSources.read(zip);
        }
    }

    private static ClassLoader loader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : OpenAPIGen.class.getClassLoader();
    }
}
