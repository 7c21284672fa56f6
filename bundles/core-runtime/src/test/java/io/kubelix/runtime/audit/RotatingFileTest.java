package io.kubelix.runtime.audit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** lumberjack's rotation: sizes, backup names, maxbackup and maxage. */
class RotatingFileTest {
    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-25T05:00:00Z"));

    @Test
    void aWriteThatWouldNotFitRotatesTheFileToATimestampedBackup() throws Exception {
        Path log = dir.resolve("audit.log");
        try (RotatingFile f = new RotatingFile(log, 10, 0, 0, clock)) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
            f.write(line("aaaa"));
            f.write(line("bbbb"));
            clock.now = Instant.parse("2026-11-25T05:00:01.250Z");
            f.write(line("cccc"));
        }
        assertEquals("cccc\n", Files.readString(log));
        assertEquals("aaaa\nbbbb\n", Files.readString(dir.resolve("audit-2026-11-25T05-00-01.250.log")));
        assertEquals("write length 11 exceeds maximum file size 10", assertThrows(IOException.class,
                () -> new RotatingFile(log, 10, 0, 0, clock).write(line("0123456789"))).getMessage());
    }

    @Test
    void anExistingFileIsAppendedToUntilFull() throws Exception {
        Path log = dir.resolve("audit.log");
        Files.writeString(log, "old\n");
        try (RotatingFile f = new RotatingFile(log, 10, 0, 0, clock)) {
            f.write(line("new"));
            f.write(line("more"));
        }
        assertEquals("more\n", Files.readString(log));
        assertEquals("old\nnew\n", Files.readString(dir.resolve("audit-2026-11-25T05-00-00.000.log")));
    }

    @Test
    void backupsBeyondMaxBackupAndOlderThanMaxAgeAreRemoved() throws Exception {
        Path log = dir.resolve("audit.log");
        Files.writeString(dir.resolve("audit-2026-11-01T00-00-00.000.log"), "ancient\n");
        Files.writeString(dir.resolve("audit-notatime.log"), "someone else's\n");
        try (RotatingFile f = new RotatingFile(log, 5, 7, 2, clock)) {
            for (int i = 0; i < 5; i++) {
                clock.now = clock.now.plusSeconds(1);
                f.write(line("l" + i + "x"));
            }
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names = files.map(p -> p.getFileName().toString()).sorted().toList();
            assertEquals(List.of("audit-2026-11-25T05-00-04.000.log", "audit-2026-11-25T05-00-05.000.log",
                    "audit-notatime.log", "audit.log"), names);
        }
        assertTrue(Files.readString(log).startsWith("l4"));
    }

    private static byte[] line(String s) {
        return (s + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static final class MutableClock extends Clock {
        Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
