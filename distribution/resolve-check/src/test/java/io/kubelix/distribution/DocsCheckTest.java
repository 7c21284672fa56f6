package io.kubelix.distribution;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DocsCheckTest {
    private static final String TABLE = """
            # Distributions

            | distribution | tree | plugins |
            |---|---|---|
            | default | `kubelix/`, `kubelix-<version>.tar.gz` | every plugin: `storage-sql` (SQLite), `resource-core`, `authn-token` |
            | minimal | `kubelix-minimal/`, `kubelix-minimal-<version>.tar.gz` | `storage-sql`, `resource-core` |
            | full | `kubelix-full/`, `kubelix-full-<version>.tar.gz` | the default's, and the examples of `examples/` (`widget-resource`) |

            | property | meaning |
            |---|---|
            | `kubelix.plugins` | the plugins to keep (`storage-sql`) |
            """;

    @TempDir
    Path dir;

    @Test
    void listsThatMatchThePluginsFoldersPass() throws Exception {
        Path docs = docs(TABLE);
        List<Path> trees = List.of(tree("kubelix", "storage-sql", "resource-core", "authn-token"),
                tree("kubelix-minimal", "resource-core", "storage-sql"),
                tree("kubelix-full", "storage-sql", "resource-core", "authn-token", "widget-resource"));

        assertEquals(List.of(), DocsCheck.check(docs, trees));
    }

    @Test
    void aPluginTheDocsLackOrListWronglyIsNamed() throws Exception {
        Path docs = docs(TABLE);
        List<Path> trees = List.of(tree("kubelix", "storage-sql", "resource-core", "authn-token", "authz-rbac"),
                tree("kubelix-minimal", "resource-core"));

        List<String> problems = DocsCheck.check(docs, trees);

        assertEquals(2, problems.size(), problems::toString);
        assertTrue(problems.get(0).startsWith("the row of `kubelix/` lacks `authz-rbac`;"), problems.get(0));
        assertTrue(problems.get(0).endsWith("the build makes: `authn-token`, `authz-rbac`, `resource-core`, `storage-sql`"),
                problems.get(0));
        assertTrue(problems.get(1).startsWith("the row of `kubelix-minimal/` lists `storage-sql`, which the build does not "
                + "put in it"), problems.get(1));
    }

    @Test
    void aDistributionWithoutARowIsReported() throws Exception {
        Path docs = docs(TABLE);

        List<String> problems = DocsCheck.check(docs, List.of(tree("kubelix-other", "storage-sql")));

        assertEquals(1, problems.size());
        assertTrue(problems.get(0).contains("no table row whose second cell starts with `kubelix-other/`"), problems.get(0));
    }

    @Test
    void theRealDocsNameEveryDistributionOfTheBuild() throws Exception {
        Path real = Path.of("../../docs/distributions.md");
        List<String> lines = Files.readAllLines(real);
        assertTrue(DocsCheck.documented(lines, "kubelix").containsAll(List.of("storage-sql", "resource-core", "authn-token")));
        assertTrue(DocsCheck.documented(lines, "kubelix-minimal").contains("resource-rbac"));
        assertTrue(DocsCheck.documented(lines, "kubelix-full").containsAll(List.of("widget-resource", "admission-deny-label",
                "resource-apps")));
    }

    private Path docs(String text) throws IOException {
        return Files.writeString(dir.resolve("distributions.md"), text);
    }

    private Path tree(String name, String... plugins) throws IOException {
        Path p = Files.createDirectories(dir.resolve(name).resolve("plugins"));
        for (String plugin : plugins) {
            Files.createFile(p.resolve(plugin + "-0.1.0-SNAPSHOT.jar"));
        }
        Files.createFile(p.resolve("README.txt"));
        return dir.resolve(name);
    }
}
