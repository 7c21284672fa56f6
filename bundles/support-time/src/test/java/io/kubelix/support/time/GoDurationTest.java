package io.kubelix.support.time;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Go's own cases for time.ParseDuration and Duration.String (time_test.go), and the messages of its errors. */
class GoDurationTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "0|0",
            "5s|5000000000",
            "30s|30000000000",
            "1478s|1478000000000",
            "-5s|-5000000000",
            "+5s|5000000000",
            "-0|0",
            "+0|0",
            "5.0s|5000000000",
            "5.6s|5600000000",
            "5.s|5000000000",
            ".5s|500000000",
            "1.0s|1000000000",
            "1.00s|1000000000",
            "1.004s|1004000000",
            "1.0040s|1004000000",
            "100.00100s|100001000000",
            "10ns|10",
            "11us|11000",
            "12\u00b5s|12000",
            "12\u03bcs|12000",
            "13ms|13000000",
            "14s|14000000000",
            "15m|900000000000",
            "16h|57600000000000",
            "3h30m|12600000000000",
            "10.5s4m|250500000000",
            "-2m3.4s|-123400000000",
            "1h2m3s4ms5us6ns|3723004005006",
            "39h9m14.425s|140954425000000",
            "52763797000ns|52763797000",
            "0.3333333333333333333h|1200000000000",
            "9007199254740993ns|9007199254740993",
            "9223372036854775807ns|9223372036854775807",
            "9223372036854775.807us|9223372036854775807",
            "9223372036s854ms775us807ns|9223372036854775807",
            "-9223372036854775808ns|-9223372036854775808",
            "-9223372036854775.808us|-9223372036854775808",
            "-9223372036s854ms775us808ns|-9223372036854775808",
            "-2562047h47m16.854775808s|-9223372036854775808",
            "0.100000000000000000000h|360000000000",
            "0.830103483285477580700h|2988372539827",
    })
    void parses(String text, long nanos) {
        assertEquals(Duration.ofNanos(nanos), GoDuration.parse(text));
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
            "''|time: invalid duration \"\"",
            "3|time: missing unit in duration \"3\"",
            "30|time: missing unit in duration \"30\"",
            "-|time: invalid duration \"-\"",
            "s|time: invalid duration \"s\"",
            ".|time: invalid duration \".\"",
            "-.|time: invalid duration \"-.\"",
            ".s|time: invalid duration \".s\"",
            "+.s|time: invalid duration \"+.s\"",
            "1d|time: unknown unit \"d\" in duration \"1d\"",
            "5 minutes|time: unknown unit \" minutes\" in duration \"5 minutes\"",
            "1h 30m|time: unknown unit \"h \" in duration \"1h 30m\"",
            "\ufffd|time: invalid duration \"\\xef\\xbf\\xbd\"",
            "9223372036854775810ns|time: invalid duration \"9223372036854775810ns\"",
            "9223372036854775808ns|time: invalid duration \"9223372036854775808ns\"",
            "-9223372036854775809ns|time: invalid duration \"-9223372036854775809ns\"",
            "9223372036854776us|time: invalid duration \"9223372036854776us\"",
            "3000000h|time: invalid duration \"3000000h\"",
            "9223372036854775.808us|time: invalid duration \"9223372036854775.808us\"",
            "9223372036854ms775us808ns|time: invalid duration \"9223372036854ms775us808ns\"",
    })
    void refusesWithGoMessages(String text, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> GoDuration.parse(text)).getMessage());
    }

    @Test
    void quotesAsTimeDoes() {
        assertEquals("\"a\\\"b\\\\c\"", GoDuration.quote("a\"b\\c"));
        assertEquals("\"\\x0a\"", GoDuration.quote("\n"));
    }

    @ParameterizedTest(name = "{0}ns -> {1}")
    @CsvSource({
            "0, 0s",
            "1, 1ns",
            "999, 999ns",
            "1100, 1.1µs",
            "2200000, 2.2ms",
            "150000000, 150ms",
            "1000000000, 1s",
            "1500000000, 1.5s",
            "3300000000, 3.3s",
            "60000000000, 1m0s",
            "90000000000, 1m30s",
            "245000000000, 4m5s",
            "245001000000, 4m5.001s",
            "18367001000000, 5h6m7.001s",
            "480000000001, 8m0.000000001s",
            "3600000000000, 1h0m0s",
            "3723500000000, 1h2m3.5s",
            "86400000000000, 24h0m0s",
            "1000000001, 1.000000001s",
            "59999999999, 59.999999999s",
            "-1500000000, -1.5s",
            "-150000000, -150ms",
            "9223372036854775807, 2562047h47m16.854775807s",
            "-9223372036854775808, -2562047h47m16.854775808s",
    })
    void formats(long nanos, String expected) {
        assertEquals(expected, GoDuration.format(nanos));
        assertEquals(Duration.ofNanos(nanos), GoDuration.parse(expected), "String() reads back");
    }

    @Test
    void flagsNameThemselvesInTheError() {
        assertEquals(Duration.ofMinutes(90), GoDuration.parseFlag("f", "1h30m"));
        assertEquals(Duration.ofSeconds(3600), GoDuration.parseFlag("f", "3600s"));
        assertEquals(Duration.ofMinutes(5), GoDuration.parseFlag("f", " 5m "), "blanks of a settings file");
        assertEquals("invalid etcd-compaction-interval \"5 minutes\": time: unknown unit \" minutes\" in duration "
                        + "\"5 minutes\"",
                assertThrows(IllegalArgumentException.class,
                        () -> GoDuration.parseFlag("etcd-compaction-interval", "5 minutes")).getMessage());
    }
}
