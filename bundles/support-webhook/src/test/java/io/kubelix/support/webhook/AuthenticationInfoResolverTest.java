package io.kubelix.support.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Webhook targets matched to a kubeconfig's users as kube's AuthenticationInfoResolver matches them. */
class AuthenticationInfoResolverTest {
    /** JSON is YAML: the kubeconfig is written as JSON and read as kube-apiserver reads it. */
    private static final ObjectMapper YAML = new ObjectMapper();

    @TempDir
    Path dir;

    private AuthenticationInfoResolver resolver(String users, String extra) throws Exception {
        Path file = dir.resolve("kubeconfig");
        Files.writeString(file, ("{'apiVersion':'v1','kind':'Config','users':[" + users + "]" + extra + "}").replace('\'', '"'));
        return AuthenticationInfoResolver.read(file, YAML);
    }

    private static String user(String name, String token) {
        return "{'name':'" + name + "','user':{'token':'" + token + "'}}";
    }

    private static String token(AuthenticationInfoResolver.AuthInfo auth) {
        return auth.token();
    }

    @Test
    void urlsAndServicesAreNamedAndMatchedAsKubeMatchesThem() throws Exception {
        AuthenticationInfoResolver r = resolver(String.join(",", user("hook.example.com:8443", "exact"),
                user("*.example.com", "wildcard"), user("*.corp.example.com:9443", "wildcard-port"),
                user("webhook.ns1.svc", "service"), user("webhook.ns1.svc:8443", "service-port"),
                user("*.ns2.svc", "namespace"), user("*", "default")), "");

        assertEquals("exact", token(r.forHostPort("hook.example.com:8443")));
        assertEquals("wildcard-port", token(r.forHostPort("a.corp.example.com:9443")));
        assertEquals("wildcard", token(r.forClientConfig(url("https://hook.example.com/admit"))),
                "port 443 is named, then looked up without it");
        assertEquals("wildcard", token(r.forClientConfig(url("https://a.b.example.com:443/admit"))));
        assertEquals("default", token(r.forHostPort("hook.example.com:9000")), "a port other than 443 must be named");
        assertEquals("service", token(r.forService("webhook", "ns1", 443)));
        assertEquals("service-port", token(r.forService("webhook", "ns1", 8443)));
        assertEquals("namespace", token(r.forService("other", "ns2", 443)));
        assertEquals("default", token(r.forClientConfig(service("webhook", "ns3", 443))));
        assertEquals("service-port", token(r.forClientConfig(service("webhook", "ns1", 8443))));
    }

    @Test
    void withoutAMatchTheCurrentContextsUserElseNone() throws Exception {
        AuthenticationInfoResolver r = resolver(user("admin", "ctx"),
                ",'contexts':[{'name':'c','context':{'user':'admin'}}],'current-context':'c'");
        assertEquals("ctx", token(r.forHostPort("anything:443")));

        AuthenticationInfoResolver none = resolver(user("other.example.com", "x"), "");
        assertSame(AuthenticationInfoResolver.AuthInfo.ANONYMOUS, none.forHostPort("hook.example.com:443"));
        assertNull(AuthenticationInfoResolver.NONE.forClientConfig(url("https://x:1/")).authorization());
    }

    @Test
    void aUserPresentsATokenFromItsFileBasicCredentialsOrACertificate() throws Exception {
        Files.writeString(dir.resolve("token"), "from-file\n");
        Files.writeString(dir.resolve("client.crt"), "CERT");
        Files.writeString(dir.resolve("client.key"), "KEY");
        AuthenticationInfoResolver r = resolver("{'name':'a','user':{'tokenFile':'token'}},"
                + "{'name':'b','user':{'username':'u','password':'p'}},"
                + "{'name':'c','user':{'client-certificate':'client.crt','client-key':'client.key'}},"
                + "{'name':'d','user':{'client-certificate-data':'Q0VSVA==','client-key-data':'S0VZ','token':'t'}}", "");

        assertEquals("Bearer from-file", r.forHostPort("a").authorization());
        assertEquals("Basic dTpw", r.forHostPort("b").authorization());
        AuthenticationInfoResolver.AuthInfo c = r.forHostPort("c");
        assertTrue(c.hasClientCertificate());
        assertEquals("CERT", new String(c.clientCertPem()));
        assertEquals("KEY", new String(c.clientKeyPem()));
        assertNull(c.authorization());
        assertEquals("Bearer t", r.forHostPort("d").authorization());
        assertEquals("CERT", new String(r.forHostPort("d").clientCertPem()));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> resolver("{'name':'x','user':{'client-certificate-data':'Q0VSVA=='}}", ""));
        assertTrue(e.getMessage().contains("user \"x\" has a client certificate without its key"), e.getMessage());
    }

    private static ObjectNode url(String url) {
        return JsonNodeFactory.instance.objectNode().put("url", url);
    }

    private static ObjectNode service(String name, String namespace, int port) {
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.putObject("service").put("name", name).put("namespace", namespace).put("port", port);
        return c;
    }
}
