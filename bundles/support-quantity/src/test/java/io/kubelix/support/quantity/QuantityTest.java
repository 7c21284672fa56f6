package io.kubelix.support.quantity;

import io.kubelix.support.quantity.Quantity.Format;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube's own cases for resource.ParseQuantity (apimachinery's quantity_test.go, TestQuantityParse and others). */
class QuantityTest {

    /** Each case as kube lists it: the text, the value it reads as, and the format it keeps. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "0, 0e0, DECIMAL_SI",
            "0n, 0e0, DECIMAL_SI",
            "0u, 0e0, DECIMAL_SI",
            "0m, 0e0, DECIMAL_SI",
            "0Ki, 0e0, BINARY_SI",
            "0k, 0e0, DECIMAL_SI",
            "0Mi, 0e0, BINARY_SI",
            "0M, 0e0, DECIMAL_SI",
            "0Gi, 0e0, BINARY_SI",
            "0G, 0e0, DECIMAL_SI",
            "0Ti, 0e0, BINARY_SI",
            "0T, 0e0, DECIMAL_SI",
            "1, 1e0, DECIMAL_SI",
            "1Ki, 1024e0, BINARY_SI",
            "8Ki, 8192e0, BINARY_SI",
            "7Mi, 7340032e0, BINARY_SI",
            "6Gi, 6442450944e0, BINARY_SI",
            "5Ti, 5497558138880e0, BINARY_SI",
            "4Pi, 4503599627370496e0, BINARY_SI",
            "3Ei, 3458764513820540928e0, BINARY_SI",
            "10Ti, 10995116277760e0, BINARY_SI",
            "100Ti, 109951162777600e0, BINARY_SI",
            "5n, 5e-9, DECIMAL_SI",
            "4u, 4e-6, DECIMAL_SI",
            "3m, 3e-3, DECIMAL_SI",
            "9, 9e0, DECIMAL_SI",
            "8k, 8e3, DECIMAL_SI",
            "50k, 5e4, DECIMAL_SI",
            "7M, 7e6, DECIMAL_SI",
            "6G, 6e9, DECIMAL_SI",
            "5T, 5e12, DECIMAL_SI",
            "40T, 4e13, DECIMAL_SI",
            "300T, 3e14, DECIMAL_SI",
            "2P, 2e15, DECIMAL_SI",
            "1E, 1e18, DECIMAL_SI",
            "1E-3, 1e-3, DECIMAL_EXPONENT",
            "1e3, 1e3, DECIMAL_EXPONENT",
            "1E6, 1e6, DECIMAL_EXPONENT",
            "1e9, 1e9, DECIMAL_EXPONENT",
            "1E12, 1e12, DECIMAL_EXPONENT",
            "1e15, 1e15, DECIMAL_EXPONENT",
            "1E18, 1e18, DECIMAL_EXPONENT",
            "1e14, 1e14, DECIMAL_EXPONENT",
            "1e13, 1e13, DECIMAL_EXPONENT",
            "1e3, 1e3, DECIMAL_EXPONENT",
            "100.035k, 100035e0, DECIMAL_SI",
            "0.001, 1e-3, DECIMAL_SI",
            "0.0005k, 5e-1, DECIMAL_SI",
            "0.005, 5e-3, DECIMAL_SI",
            "0.05, 5e-2, DECIMAL_SI",
            "0.5, 5e-1, DECIMAL_SI",
            "0.00050k, 5e-1, DECIMAL_SI",
            "0.00500, 5e-3, DECIMAL_SI",
            "0.05000, 5e-2, DECIMAL_SI",
            "0.50000, 5e-1, DECIMAL_SI",
            "0.5e0, 5e-1, DECIMAL_EXPONENT",
            "0.5e-1, 5e-2, DECIMAL_EXPONENT",
            "0.5e-2, 5e-3, DECIMAL_EXPONENT",
            "0.5e0, 5e-1, DECIMAL_EXPONENT",
            "10.035M, 10035e3, DECIMAL_SI",
            "1.2e3, 12e2, DECIMAL_EXPONENT",
            "1.3E+6, 13e5, DECIMAL_EXPONENT",
            "1.40e9, 14e8, DECIMAL_EXPONENT",
            "1.53E12, 153e10, DECIMAL_EXPONENT",
            "1.6e15, 16e14, DECIMAL_EXPONENT",
            "1.7E18, 17e17, DECIMAL_EXPONENT",
            "9.01, 901e-2, DECIMAL_SI",
            "8.1k, 81e2, DECIMAL_SI",
            "7.123456M, 7123456e0, DECIMAL_SI",
            "6.987654321G, 6987654321e0, DECIMAL_SI",
            "5.444T, 5444e9, DECIMAL_SI",
            "40.1T, 401e11, DECIMAL_SI",
            "300.2T, 3002e11, DECIMAL_SI",
            "2.5P, 25e14, DECIMAL_SI",
            "1.01E, 101e16, DECIMAL_SI",
            "3.001n, 4e-9, DECIMAL_SI",
            "1.1E-9, 2e-9, DECIMAL_EXPONENT",
            "0.0000000001, 1e-9, DECIMAL_SI",
            "0.0000000005, 1e-9, DECIMAL_SI",
            "0.00000000050, 1e-9, DECIMAL_SI",
            "0.5e-9, 1e-9, DECIMAL_EXPONENT",
            "0.9n, 1e-9, DECIMAL_SI",
            "0.00000012345, 124e-9, DECIMAL_SI",
            "0.00000012354, 124e-9, DECIMAL_SI",
            "9Ei, 9223372036854775807e0, BINARY_SI",
            "9223372036854775807Ki, 9223372036854775807e0, BINARY_SI",
            "12E, 12e18, DECIMAL_SI",
            "100.035Ki, 10243584e-2, BINARY_SI",
            "0.5Mi, 524288e0, BINARY_SI",
            "0.05Gi, 536870912e-1, BINARY_SI",
            "0.025Ti, 274877906944e-1, BINARY_SI",
            "0.000000000001Ki, 2e-9, DECIMAL_SI",
            ".001, 1e-3, DECIMAL_SI",
            ".0001k, 100e-3, DECIMAL_SI",
            "1., 1e0, DECIMAL_SI",
            "1.G, 1e9, DECIMAL_SI"
    })
    void parsesAsKubeDoes(String text, BigDecimal value, Format format) {
        Quantity q = Quantity.parse(text);
        assertEquals(0, value.compareTo(q.value()), () -> text + " read as " + q.value().toPlainString());
        assertEquals(format, q.format(), text);

        // The negative and the explicitly positive form of every case, as kube checks them.
        Quantity negative = Quantity.parse("-" + text);
        assertEquals(0, value.negate().compareTo(negative.value()), () -> "-" + text + " read as " + negative.value());
        assertEquals(format, negative.format(), "-" + text);
        Quantity positive = Quantity.parse("+" + text);
        assertEquals(0, value.compareTo(positive.value()), "+" + text);
        assertEquals(format, positive.format(), "+" + text);
    }

    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"1.1.M", "1+1.0M", "0.1mi", "0.1am", "aoeu", ".5i", "1i", "-3.01i", "-3.01e-", " 1", "1 ", "", "5foo", "1Gb", "1e", "1.5.5"})
    void refusesWhatKubeRefuses(String text) {
        InvalidQuantityException e = assertThrows(InvalidQuantityException.class, () -> Quantity.parse(text));
        assertTrue(e.getMessage().equals(Quantity.ERR_FORMAT_WRONG) || e.getMessage().equals(Quantity.ERR_SUFFIX),
                e.getMessage());
        assertFalse(Quantity.isQuantity(text));
    }

    @Test
    void kubesErrorsAreWordedAsKubes() {
        assertEquals("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
                assertThrows(InvalidQuantityException.class, () -> Quantity.parse("5foo")).getMessage());
        assertEquals("unable to parse quantity's suffix",
                assertThrows(InvalidQuantityException.class, () -> Quantity.parse("1i")).getMessage());
    }

    /** What kube's grammar lets through though it looks wrong: a bare suffix, sign or point is zero. */
    @ParameterizedTest(name = "\"{0}\"")
    @ValueSource(strings = {"Ki", "-", "+", ".", "-.", "1.G"})
    void oddFormsKubeAcceptsAreAccepted(String text) {
        assertTrue(Quantity.isQuantity(text), text);
    }

    /** kube's TestParseQuantityString: how a text splits into sign, numerator, denominator and suffix. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"0.025Ti, true, 0, 025, Ti", "1.025Ti, true, 1, 025, Ti", "-1.025Ti, false, 1, 025, Ti",
            "., true, 0, '', ''", "-., false, 0, '', ''", "1E-3, true, 1, '', E-3"})
    void splitsAsKubeDoes(String text, boolean positive, String num, String denom, String suffix) {
        assertEquals(new Quantity.Parts(positive, num, denom, suffix), Quantity.Parts.of(text));
    }

    /** kube's TestJSONWhitespace: a JSON string or number is trimmed before it is parsed. */
    @ParameterizedTest(name = "\"{0}\"")
    @CsvSource({"' 1', 1", "'1 ', 1", "10, 10", "' -1', -1"})
    void jsonTextIsTrimmed(String json, BigDecimal value) {
        assertEquals(0, value.compareTo(Quantity.parseJson(json).value()));
    }

    /** kube's String() of what ParseQuantity read (apimachinery's TestQuantityString shapes). */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "0, 0", "500m, 500m", "0.5, 500m", "1.5, 1500m", "1000, 1k", "1500, 1500", "2, 2", "100n, 100n",
            "1Gi, 1Gi", "1.5Gi, 1536Mi", "1024, 1024", "1024Ki, 1Mi", "0.5Ki, 512", "1025Ki, 1025Ki", "1e3, 1e3",
            "1.5e3, 1500", "1e-3, 1e-3", "1000E, 1000E", "-500m, -500m", "1.5Ki, 1536", "10G, 10G"})
    void canonicalFormIsKubes(String text, String canonical) {
        assertEquals(canonical, Quantity.parse(text).canonical());
    }

    @Test
    void aSumKeepsTheFirstFormatUnlessItIsZero() {
        assertEquals("1536Mi", Quantity.parse("1Gi").add(Quantity.parse("512Mi")).canonical());
        assertEquals("1500m", Quantity.parse("1").add(Quantity.parse("500m")).canonical());
        assertEquals("1Gi", Quantity.parse("0").add(Quantity.parse("1Gi")).canonical());
        assertEquals("3", Quantity.of(BigDecimal.valueOf(3), Format.DECIMAL_SI).canonical());
    }
}
