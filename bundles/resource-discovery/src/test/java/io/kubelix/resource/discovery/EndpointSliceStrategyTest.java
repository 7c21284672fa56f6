package io.kubelix.resource.discovery;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.errors.FieldError;
import io.kubelix.api.registry.StoreSpec;
import io.kubelix.api.registry.TableColumn;
import io.kubelix.api.request.RequestContext;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EndpointSliceStrategyTest {
    private static final RequestContext CTX = RequestContext.system("default");
    private static final ObjectMapper MAPPER = new ObjectMapper().configure(JsonParser.Feature.ALLOW_SINGLE_QUOTES, true);
    private final EndpointSliceStrategy strategy = new EndpointSliceStrategy();

    private static ObjectNode json(String json) {
        try {
            return (ObjectNode) MAPPER.readTree(json.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(json, e);
        }
    }

    private static ObjectNode slice(String addressType, String addresses) {
        return json("{'apiVersion':'discovery.k8s.io/v1','kind':'EndpointSlice','metadata':{'name':'web-abc'},"
                + "'addressType':'" + addressType + "','endpoints':[{'addresses':[" + addresses + "],"
                + "'conditions':{'ready':true}}],'ports':[{'name':'http','port':80}]}");
    }

    private List<String> create(ObjectNode s) {
        strategy.prepareForCreate(CTX, s);
        return strategy.validate(CTX, s).stream().map(FieldError::message).toList();
    }

    @Test
    void portsDefaultToTcpAndAnEmptyName() {
        ObjectNode s = json("{'metadata':{'name':'s'},'addressType':'IPv4','endpoints':[],'ports':[{'port':8080}]}");
        assertEquals(List.of(), create(s));
        assertEquals(json("{'port':8080,'name':'','protocol':'TCP'}"), s.path("ports").get(0));
    }

    @Test
    void addressesAreValidatedPerAddressType() {
        assertEquals(List.of(), create(slice("IPv4", "'10.1.2.3','10.1.2.4'")));
        assertEquals(List.of(), create(slice("IPv6", "'fd00::1'")));
        assertEquals(List.of(), create(slice("FQDN", "'db.example.com'")));

        assertEquals(List.of("endpoints[0].addresses[0]: Invalid value: \"fd00::1\": must be a valid IPv4 address"),
                create(slice("IPv4", "'fd00::1'")));
        assertEquals(List.of("endpoints[0].addresses[0]: Invalid value: \"10.0.0.300\": must be a valid IPv4 address"),
                create(slice("IPv4", "'10.0.0.300'")));
        assertEquals(List.of("endpoints[0].addresses[0]: Invalid value: \"127.0.0.1\": may not be in the loopback range "
                + "(127.0.0.0/8, ::1/128)"), create(slice("IPv4", "'127.0.0.1'")));
        assertEquals(List.of("endpoints[0].addresses[0]: Invalid value: \"10.0.0.1\": must be a valid IPv6 address"),
                create(slice("IPv6", "'10.0.0.1'")));
        assertEquals(List.of("endpoints[0].addresses[0]: Invalid value: \"localhost\": should be a domain with at least "
                + "two segments separated by dots"), create(slice("FQDN", "'localhost'")));
        assertEquals(List.of("endpoints[0].addresses: Required value: must contain at least 1 address"),
                create(slice("IPv4", "")));
    }

    @Test
    void addressTypeIsRequiredSupportedAndImmutable() {
        ObjectNode none = slice("", "'10.0.0.1'");
        assertEquals(List.of("addressType: Required value"), create(none));
        assertEquals(List.of("addressType: Unsupported value: \"IPv5\": supported values: \"FQDN\", \"IPv4\", \"IPv6\""),
                create(slice("IPv5", "'10.0.0.1'")));

        ObjectNode old = slice("IPv4", "'10.0.0.1'");
        create(old);
        ObjectNode changed = slice("IPv6", "'fd00::1'");
        strategy.prepareForUpdate(CTX, changed, old);
        assertEquals(List.of("addressType: Invalid value: \"IPv6\": field is immutable"),
                strategy.validateUpdate(CTX, changed, old).stream().map(FieldError::message).toList());
    }

    @Test
    void portNamesAreUniqueLabelsWithSupportedProtocols() {
        ObjectNode s = json("{'metadata':{'name':'s'},'addressType':'IPv4','endpoints':[],'ports':[{'name':'http','port':80},"
                + "{'name':'http','port':81},{'name':'Bad_Name','port':82},{'name':'x','port':83,'protocol':'ICMP'}]}");
        List<String> errs = create(s);
        assertEquals("ports[1].name: Duplicate value: \"http\"", errs.get(0));
        assertTrue(errs.get(1).startsWith("ports[2].name: Invalid value: \"Bad_Name\": a lowercase RFC 1123 label must"),
                errs::toString);
        assertEquals("ports[3].protocol: Unsupported value: \"ICMP\": supported values: \"SCTP\", \"TCP\", \"UDP\"",
                errs.get(2));
    }

    @Test
    void printsAddressTypePortsAndEndpoints() {
        List<TableColumn> columns = DiscoveryRESTStorageProvider.endpointSliceColumns();
        assertEquals(List.of("Name", "AddressType", "Ports", "Endpoints", "Age"), columns.stream().map(TableColumn::name).toList());
        ObjectNode s = json("{'metadata':{'name':'web-abc'},'addressType':'IPv4','endpoints':[{'addresses':['10.0.0.1','10.0.0.2']},"
                + "{'addresses':['10.0.0.3']},{'addresses':['10.0.0.4','10.0.0.5']}],'ports':[{'name':'http','port':80},"
                + "{'name':'metrics'}]}");
        assertEquals("80,metrics", DiscoveryRESTStorageProvider.ports(s));
        assertEquals("10.0.0.1,10.0.0.2,10.0.0.3 + 2 more...", DiscoveryRESTStorageProvider.endpoints(s));
        assertEquals("<unset>", DiscoveryRESTStorageProvider.ports(json("{'ports':[]}")));
    }

    @Test
    void endpointSlicesAreNamespacedWithAGeneration() {
        StoreSpec spec = DiscoveryRESTStorageProvider.endpointSliceSpec();
        assertTrue(spec.namespaced() && spec.generation());
        assertEquals(List.of(), spec.shortNames());
    }
}
