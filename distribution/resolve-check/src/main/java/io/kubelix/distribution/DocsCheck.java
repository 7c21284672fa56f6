package io.kubelix.distribution;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Checks, at build time, that {@code docs/distributions.md} lists each distribution's plugins as
 * the build made them, so the documented lists are the build's and never typed out of date.
 *
 * <p>The table of the build's distributions has one row per distribution: its tree in the second
 * cell ({@code `kubelix/`, ...}) and its plugins in the third, each in backquotes (other
 * backquoted words holding a {@code /} are not plugin names). A third cell that starts with
 * {@code the default's} adds the plugins of the {@code kubelix/} row.
 *
 * <p>Usage: {@code DocsCheck <distributions.md> <distribution directory>...}. Exits 1, saying
 * what to write, when a list differs from the directory's {@code plugins/}.
 */
public final class DocsCheck {
    private static final Pattern QUOTED = Pattern.compile("`([^`]+)`");
    private static final Pattern PLUGIN_NAME = Pattern.compile("[a-z0-9][a-z0-9.-]*");
    private static final String DEFAULT_TREE = "kubelix";
    private static final String DEFAULTS = "the default's";

    private DocsCheck() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: DocsCheck <distributions.md> <distribution directory>...");
            System.exit(2);
        }
        Path docs = Path.of(args[0]);
        List<Path> distributions = Stream.of(args).skip(1).map(Path::of).toList();
        List<String> problems = check(docs, distributions);
        if (!problems.isEmpty()) {
            System.err.println(docs.normalize() + " does not list the plugins the build makes:");
            problems.forEach(p -> System.err.println("  " + p));
            System.exit(1);
        }
        System.out.println("Docs check: " + docs.getFileName() + " lists the plugins of "
                + distributions.stream().map(d -> d.getFileName().toString()).collect(Collectors.joining(", ")));
    }

    /** What differs between the documented plugin lists and the distributions' {@code plugins/}; empty when none. */
    static List<String> check(Path docs, List<Path> distributions) throws IOException {
        List<String> lines = Files.readAllLines(docs, StandardCharsets.UTF_8);
        List<String> problems = new ArrayList<>();
        for (Path distribution : distributions) {
            String tree = distribution.getFileName().toString();
            Set<String> documented;
            try {
                documented = documented(lines, tree);
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
                continue;
            }
            Set<String> built = new TreeSet<>();
            try (Stream<Path> jars = Files.list(distribution.resolve("plugins"))) {
                jars.filter(j -> j.getFileName().toString().endsWith(".jar"))
                        .forEach(j -> built.add(PluginSelection.nameOf(j)));
            }
            if (!documented.equals(built)) {
                Set<String> missing = new TreeSet<>(built);
                missing.removeAll(documented);
                Set<String> extra = new TreeSet<>(documented);
                extra.removeAll(built);
                StringBuilder p = new StringBuilder("the row of `" + tree + "/`");
                if (!missing.isEmpty()) {
                    p.append(" lacks ").append(quoted(missing));
                }
                if (!extra.isEmpty()) {
                    p.append(missing.isEmpty() ? "" : " and").append(" lists ").append(quoted(extra))
                            .append(", which the build does not put in it");
                }
                p.append("; the build makes: ").append(quoted(built));
                problems.add(p.toString());
            }
        }
        return problems;
    }

    /** The plugins the row of {@code tree} names, in its order. */
    static Set<String> documented(List<String> lines, String tree) {
        String[] cells = row(lines, tree);
        Set<String> names = new LinkedHashSet<>();
        String plugins = cells[3].trim();
        if (plugins.startsWith(DEFAULTS)) {
            if (tree.equals(DEFAULT_TREE)) {
                throw new IllegalArgumentException("the row of `" + tree + "/` cannot be \"" + DEFAULTS + "\"");
            }
            names.addAll(documented(lines, DEFAULT_TREE));
        }
        Matcher m = QUOTED.matcher(plugins);
        while (m.find()) {
            if (PLUGIN_NAME.matcher(m.group(1)).matches()) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    /** The cells of the table row whose second cell names {@code `tree/`} (cell 0 is before the first {@code |}). */
    private static String[] row(List<String> lines, String tree) {
        String wanted = "`" + tree + "/`";
        for (String line : lines) {
            if (!line.startsWith("|")) {
                continue;
            }
            String[] cells = line.split("\\|", -1);
            if (cells.length >= 5 && cells[2].trim().startsWith(wanted)) {
                return cells;
            }
        }
        throw new IllegalArgumentException("no table row whose second cell starts with " + wanted
                + " (the distribution's tree) and whose third lists its plugins");
    }

    private static String quoted(Set<String> names) {
        return names.stream().map(n -> "`" + n + "`").collect(Collectors.joining(", "));
    }
}
