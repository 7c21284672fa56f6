package io.kubelix.runtime.plugins;

import java.util.ArrayList;
import java.util.List;

/** A plain-text table as kubectl prints one: upper-case headers, columns two spaces apart. */
final class TextTable {
    private final List<String[]> rows = new ArrayList<>();
    private final int columns;

    TextTable(String... headers) {
        this.columns = headers.length;
        rows.add(headers);
    }

    TextTable row(Object... cells) {
        if (cells.length != columns) {
            throw new IllegalArgumentException("expected " + columns + " cells, got " + cells.length);
        }
        String[] r = new String[columns];
        for (int i = 0; i < columns; i++) {
            r[i] = cells[i] == null ? "" : cells[i].toString();
        }
        rows.add(r);
        return this;
    }

    @Override
    public String toString() {
        int[] width = new int[columns];
        for (String[] r : rows) {
            for (int i = 0; i < columns; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder b = new StringBuilder();
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                line.append(r[i]);
                if (i < columns - 1) {
                    line.append(" ".repeat(width[i] - r[i].length() + 2));
                }
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
        return b.toString();
    }
}
