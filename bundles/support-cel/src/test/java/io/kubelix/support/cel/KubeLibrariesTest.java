package io.kubelix.support.cel;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube's CEL libraries of its own value types, on the examples of kube's library documentation and tests. */
class KubeLibrariesTest {
    private static final CelEnvironment ENV = CelEnvironment.builder().variable("self", CelEnvironment.Type.DYN).build();

    private static Object eval(String expr) throws Exception {
        return ENV.compile(expr).evaluate(Map.of("self", "x"), CelEnvironment.PER_CALL_COST_LIMIT).value();
    }

    private static void assertTrueExpr(String expr) throws Exception {
        assertEquals(true, eval(expr), expr);
    }

    private static String error(String expr) {
        return assertThrows(CelEvaluationError.class, () -> eval(expr), expr).getMessage();
    }

    private static void assertContains(String part, String message) {
        assertTrue(message.contains(part), message);
    }

    @Test
    void quantities() throws Exception {
        assertTrueExpr("quantity('50M') == quantity('0.05G')");
        assertTrueExpr("quantity('1') == quantity('1000m')");
        assertTrueExpr("quantity('50k').isLessThan(quantity('100k')) && quantity('200M').isGreaterThan(quantity('100M'))");
        assertTrueExpr("quantity('50M').compareTo(quantity('100M')) == -1 && quantity('1Ki').compareTo(quantity('1024')) == 0");
        assertTrueExpr("quantity('-50M').sign() == -1 && quantity('0').sign() == 0 && quantity('5k').sign() == 1");
        assertTrueExpr("quantity('50k').add(quantity('20k')) == quantity('70k') && quantity('50k').add(20) == quantity('50020')");
        assertTrueExpr("quantity('50k').sub(quantity('20k')) == quantity('30k') && quantity('50k').sub(20) == quantity('49980')");
        assertTrueExpr("quantity('1.5').asApproximateFloat() == 1.5 && quantity('50k').asInteger() == 50000");
        assertTrueExpr("quantity('50k').isInteger() && !quantity('1.5').isInteger() && !quantity('9999999999999999999').isInteger()");
        assertTrueExpr("isQuantity('500Mi') && !isQuantity('5 apples')");
        assertContains("cannot convert value to integer", error("quantity('1.5').asInteger()"));
        assertContains("quantities must match the regular expression", error("quantity('5 apples')"));
    }

    @Test
    void ipsAndCidrs() throws Exception {
        assertTrueExpr("ip('127.0.0.1').family() == 4 && ip('::1').family() == 6");
        assertTrueExpr("ip('0.0.0.0').isUnspecified() && !ip('127.0.0.1').isUnspecified() && ip('::').isUnspecified()");
        assertTrueExpr("ip('127.0.0.1').isLoopback() && !ip('192.168.0.1').isLoopback() && ip('::1').isLoopback()");
        assertTrueExpr("ip('224.0.0.1').isLinkLocalMulticast() && !ip('224.0.1.1').isLinkLocalMulticast() && ip('ff02::1').isLinkLocalMulticast()");
        assertTrueExpr("ip('169.254.169.254').isLinkLocalUnicast() && ip('fe80::1').isLinkLocalUnicast() && !ip('fd80::1').isLinkLocalUnicast()");
        assertTrueExpr("ip('192.168.0.1').isGlobalUnicast() && !ip('255.255.255.255').isGlobalUnicast() "
                + "&& ip('2001:db8::abcd').isGlobalUnicast() && !ip('ff00::1').isGlobalUnicast()");
        assertTrueExpr("ip.isCanonical('127.0.0.1') && ip.isCanonical('2001:db8::abcd') && !ip.isCanonical('2001:DB8::ABCD')");
        assertTrueExpr("string(ip('192.168.0.1')) == '192.168.0.1' && ip('192.168.0.1') == ip('192.168.0.1')");
        assertTrueExpr("cidr('192.168.0.0/24').containsIP(ip('192.168.0.1')) && !cidr('192.168.0.0/24').containsIP('192.168.1.1')");
        assertTrueExpr("cidr('192.168.0.0/24').containsCIDR('192.168.0.0/25') && !cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/23'))");
        assertTrueExpr("cidr('192.168.0.0/24').ip() == ip('192.168.0.0') && cidr('192.168.0.1/24').masked() == cidr('192.168.0.0/24')");
        assertTrueExpr("cidr('192.168.0.0/24').prefixLength() == 24 && string(cidr('192.168.0.1/24')) == '192.168.0.1/24'");
        assertTrueExpr("isCIDR('10.0.0.0/8') && !isCIDR('10.0.0.0') && isIP('fd00::1') && !isIP('::ffff:1.2.3.4')");
        assertContains("IPv4-mapped IPv6 address \"::ffff:1.2.3.4\" is not allowed", error("ip('::ffff:1.2.3.4')"));
        assertContains("IP address \"fe80::1%en0\" with zone value is not allowed", error("ip('fe80::1%en0')"));
        assertContains("IP Address \"192.168.0.1.0\" parse error during conversion from string", error("ip('192.168.0.1.0')"));
        assertContains("network address parse error during conversion from string", error("cidr('10.0.0.0')"));
    }

    @Test
    void urls() throws Exception {
        assertTrueExpr("url('https://example.com:80/').getHost() == 'example.com:80' && url('https://example.com/').getHost() == 'example.com'");
        assertTrueExpr("url('https://[::1]:80/').getHost() == '[::1]:80' && url('https://[::1]:80/').getHostname() == '::1'");
        assertTrueExpr("url('https://example.com:80/').getPort() == '80' && url('https://example.com/').getPort() == ''");
        assertTrueExpr("url('/path').getScheme() == '' && url('https://example.com/').getScheme() == 'https'");
        assertTrueExpr("url('https://example.com/%2Fpath%20x').getEscapedPath() == '/%2Fpath%20x'");
        assertTrueExpr("url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}");
        assertTrueExpr("isURL('https://example.com/x') && isURL('/absolute-path') && !isURL('../relative-path') && !isURL('example com')");
        assertContains("URL parse error during conversion from string", error("url('example com')"));
    }

    @Test
    void namedFormats() throws Exception {
        assertEquals(Optional.empty(), eval("format.dns1123Label().validate('my-label-name')"));
        assertEquals(Optional.of(List.of("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', "
                + "and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation "
                + "is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')")), eval("format.dns1123Label().validate('MY_LABEL')"));
        assertTrueExpr("format.named('dns1123Subdomain').hasValue() && !format.named('nope').hasValue()");
        assertTrueExpr("!format.named('uuid').value().validate('123e4567-e89b-12d3-a456-426614174000').hasValue()");
        assertTrueExpr("format.dns1123LabelPrefix().validate('my-').hasValue() == false && format.dns1123Label().validate('my-').hasValue()");
        assertTrueExpr("format.date().validate('2021-01-01') == optional.none() && format.datetime().validate('2021-01-01T00:00:00Z') == optional.none()");
        assertTrueExpr("format.byte().validate('aGVsbG8=') == optional.none() && format.byte().validate('!!') == optional.of(['invalid base64'])");
        assertTrueExpr("format.uri().validate('example com') == optional.of(['parse \"example com\": invalid URI for request'])");
    }

    @Test
    void twoVariableComprehensions() throws Exception {
        assertTrueExpr("{'a': 1, 'b': 2}.all(k, v, v > 0) && [10, 20].exists(i, v, i == 1 && v == 20)");
        assertEquals(List.of(0L, 3L), eval("[1, 3].transformList(i, v, i * v)"));
    }
}
