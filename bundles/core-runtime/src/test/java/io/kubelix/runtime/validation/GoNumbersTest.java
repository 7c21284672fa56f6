package io.kubelix.runtime.validation;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Numbers as Go's fmt.Sprint and strconv.FormatFloat(v, 'g', -1, 64) write them (the texts Go prints). */
class GoNumbersTest {
    private static final ObjectMapper JSON = new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    @Test
    void floatsAreWrittenAsGosShortestG() throws Exception {
        // fmt.Sprint(1.5), fmt.Sprint(1000000.0), ... as a Go program prints them.
        assertFormats("1.5", "1.5");
        assertFormats("1.50", "1.5");
        assertFormats("1000000.0", "1e+06");
        assertFormats("1e6", "1e+06");
        assertFormats("123456.0", "123456");
        assertFormats("1234567.5", "1.2345675e+06");
        assertFormats("100.0", "100");
        assertFormats("0.0001", "0.0001");
        assertFormats("0.000025", "2.5e-05");
        assertFormats("-2.50", "-2.5");
        assertFormats("0.0", "0");
        assertFormats("1e21", "1e+21");
        assertFormats("1E+100", "1e+100");
    }

    @Test
    void numbersBeyondFloat64AreWrittenByTheirValueNotAsInfinity() throws Exception {
        assertFormats("1e400", "1e+400");
        assertFormats("-1.25e-400", "-1.25e-400");
    }

    @Test
    void integersKeepAllTheirDigits() throws Exception {
        assertFormats("2147483648", "2147483648");
        assertFormats("-99999999999999999999999", "-99999999999999999999999");
    }

    private static void assertFormats(String json, String go) throws Exception {
        assertEquals(go, GoNumbers.format(JSON.readTree(json)), json);
    }
}
