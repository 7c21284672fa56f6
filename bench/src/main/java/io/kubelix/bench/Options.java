package io.kubelix.bench;

import java.util.HashMap;
import java.util.Map;

/** Command-line flags, {@code --name value} or {@code --name=value}; a flag without a value is "true". */
final class Options {
    private final Map<String, String> values = new HashMap<>();
    final String scenario;

    Options(String[] args) {
        String sc = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (!a.startsWith("--")) {
                if (sc != null) {
                    throw new IllegalArgumentException("unexpected argument: " + a);
                }
                sc = a;
                continue;
            }
            String name = a.substring(2);
            int eq = name.indexOf('=');
            if (eq >= 0) {
                values.put(name.substring(0, eq), name.substring(eq + 1));
            } else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                values.put(name, args[++i]);
            } else {
                values.put(name, "true");
            }
        }
        this.scenario = sc;
    }

    String get(String name, String def) {
        return values.getOrDefault(name, def);
    }

    String get(String name) {
        return values.get(name);
    }

    int integer(String name, int def) {
        return Integer.parseInt(get(name, Integer.toString(def)));
    }

    double number(String name, double def) {
        return Double.parseDouble(get(name, Double.toString(def)));
    }

    boolean flag(String name) {
        return Boolean.parseBoolean(get(name, "false"));
    }
}
