package io.kubelix.api.registry;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** apimachinery's duration.HumanDuration, at each boundary where its format changes. */
class HumanDurationTest {
    private static final long M = 60;
    private static final long H = 60 * M;
    private static final long D = 24 * H;
    private static final long Y = 365 * D;

    @ParameterizedTest(name = "{0}s -> {1}")
    @CsvSource({
            "0, 0s",
            "1, 1s",
            "70, 70s",
            "119, 119s",
            "120, 2m",
            "121, 2m1s",
            "190, 3m10s",
            "599, 9m59s",
            "600, 10m",
            "601, 10m",
            "4200, 70m",
            "10799, 179m",
            "10800, 3h",
            "10860, 3h1m",
            "28740, 7h59m",
            "28799, 7h59m",
            "28800, 8h",
            "169200, 47h",
            "172799, 47h",
            "172800, 2d",
            "176400, 2d1h",
            "691200, 8d",
    })
    void boundaries(long seconds, String expected) {
        assertEquals(expected, HumanDuration.format(Duration.ofSeconds(seconds)));
    }

    @Test
    void daysAndYears() {
        assertEquals("7d23h", HumanDuration.format(Duration.ofSeconds(7 * D + 23 * H)));
        assertEquals("8d", HumanDuration.format(Duration.ofSeconds(8 * D + 2 * H)));
        assertEquals("367d", HumanDuration.format(Duration.ofSeconds(367 * D)));
        assertEquals("729d", HumanDuration.format(Duration.ofSeconds(2 * Y - 1)));
        assertEquals("2y", HumanDuration.format(Duration.ofSeconds(2 * Y)));
        assertEquals("2y1d", HumanDuration.format(Duration.ofSeconds(2 * Y + 25 * H)));
        assertEquals("7y364d", HumanDuration.format(Duration.ofSeconds(8 * Y - 1)));
        assertEquals("8y", HumanDuration.format(Duration.ofSeconds(8 * Y + 2 * H)));
        assertEquals("20y", HumanDuration.format(Duration.ofSeconds(20 * Y + 100 * D)));
    }

    @Test
    void fractionsOfASecondAreTruncated() {
        assertEquals("119s", HumanDuration.format(Duration.ofMillis(119_999)));
        assertEquals("9m59s", HumanDuration.format(Duration.ofMillis(599_999)));
    }

    @Test
    void slightlyNegativeDurationsAreNow() {
        // Go's int(d.Seconds()) truncates toward zero, so up to (but excluding) two seconds of
        // clock skew reads as "0s".
        assertEquals("0s", HumanDuration.format(Duration.ofMillis(-500)));
        assertEquals("0s", HumanDuration.format(Duration.ofMillis(-1000)));
        assertEquals("0s", HumanDuration.format(Duration.ofMillis(-1500)));
        assertEquals("0s", HumanDuration.format(Duration.ofMillis(-1999)));
        assertEquals("<invalid>", HumanDuration.format(Duration.ofMillis(-2000)));
        assertEquals("<invalid>", HumanDuration.format(Duration.ofSeconds(-3600)));
    }

    @Test
    void sinceATimestamp() {
        Instant now = Instant.parse("2024-05-01T12:00:00Z");

        assertEquals("90s", HumanDuration.since("2024-05-01T11:58:30Z", now));
        assertEquals("3h", HumanDuration.since("2024-05-01T09:00:00Z", now));
        assertEquals("0s", HumanDuration.since("2024-05-01T12:00:01Z", now.plusMillis(-500)));
        assertEquals("<unknown>", HumanDuration.since(null, now));
        assertEquals("<unknown>", HumanDuration.since("", now));
        assertEquals("<unknown>", HumanDuration.since("yesterday", now));
    }
}
