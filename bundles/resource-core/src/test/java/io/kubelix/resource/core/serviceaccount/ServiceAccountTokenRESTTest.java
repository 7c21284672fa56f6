package io.kubelix.resource.core.serviceaccount;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kubelix.api.authn.TokenIssuer;
import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.registry.CreateOptions;
import io.kubelix.api.request.RequestContext;
import io.kubelix.api.schema.GroupVersion;
import io.kubelix.resource.core.config.ConfigSpecs;
import io.kubelix.resource.core.node.NodeStorage;
import io.kubelix.resource.core.pod.PodStorage;
import io.kubelix.testing.store.MapStore;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.kubelix.resource.core.testing.Json.obj;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** serviceaccounts/token: kube's TokenREST defaults, validation and bound objects, over a recording issuer. */
class ServiceAccountTokenRESTTest {
    private static final RequestContext CTX = RequestContext.system("team");

    private final MapStore accounts = new MapStore(ServiceAccountSpecs.serviceAccountSpec());
    private final MapStore pods = new MapStore(PodStorage.spec());
    private final MapStore secrets = new MapStore(ConfigSpecs.secretSpec());
    private final MapStore nodes = new MapStore(NodeStorage.spec());
    private final List<Object[]> issued = new ArrayList<>();
    private long maxExpiration = Long.MAX_VALUE;
    private TokenIssuer issuer = new TokenIssuer() {
        @Override
        public List<String> defaultAudiences() {
            return List.of("https://issuer.example");
        }

        @Override
        public IssuedToken issue(ServiceAccount account, List<String> audiences, long expirationSeconds,
                                 BoundObject boundObject) {
            issued.add(new Object[] {account, audiences, expirationSeconds, boundObject});
            long lifetime = Math.min(expirationSeconds, maxExpiration);
            return new IssuedToken("token-" + issued.size(), lifetime, Instant.now().plusSeconds(lifetime));
        }
    };
    private final ServiceAccountTokenREST rest = new ServiceAccountTokenREST(() -> issuer, accounts, pods, secrets, nodes);

    ServiceAccountTokenRESTTest() {
        accounts.objects.put("bot", obj("{'metadata':{'name':'bot','namespace':'team','uid':'uid-bot'}}"));
    }

    @Test
    void anEmptyRequestGetsKubesDefaultsAndAToken() {
        ObjectNode out = rest.create(CTX, "bot", obj("{'apiVersion':'authentication.k8s.io/v1','kind':'TokenRequest',"
                + "'spec':{}}"), CreateOptions.DEFAULT);
        assertEquals("TokenRequest", out.path("kind").asText());
        assertEquals("authentication.k8s.io/v1", out.path("apiVersion").asText());
        assertEquals("bot", out.path("metadata").path("name").asText());
        assertEquals("team", out.path("metadata").path("namespace").asText());
        assertEquals(3600, out.path("spec").path("expirationSeconds").asLong());
        assertEquals("https://issuer.example", out.path("spec").path("audiences").get(0).asText());
        assertEquals("token-1", out.path("status").path("token").asText());
        Instant created = Instant.parse(out.path("metadata").path("creationTimestamp").asText());
        assertEquals(created.plusSeconds(3600), Instant.parse(out.path("status").path("expirationTimestamp").asText()));

        TokenIssuer.ServiceAccount account = (TokenIssuer.ServiceAccount) issued.get(0)[0];
        assertEquals(new TokenIssuer.ServiceAccount("team", "bot", "uid-bot"), account);
        assertEquals(List.of("https://issuer.example"), issued.get(0)[1]);
        assertEquals(3600L, issued.get(0)[2]);
        assertNull(issued.get(0)[3]);
        assertEquals("authentication.k8s.io/v1",
                rest.groupVersionKind(new GroupVersion("", "v1")).groupVersion().apiVersion());
    }

    @Test
    void requestedAudiencesAndLifetimeAreKept() {
        ObjectNode out = rest.create(CTX, "bot", obj("{'spec':{'audiences':['vault'],'expirationSeconds':600}}"),
                CreateOptions.DEFAULT);
        assertEquals(List.of("vault"), issued.get(0)[1]);
        assertEquals(600, out.path("spec").path("expirationSeconds").asLong());
    }

    @Test
    void aMissingServiceAccountIsNotFound() {
        StatusException e = assertThrows(StatusException.class,
                () -> rest.create(CTX, "missing", obj("{'spec':{}}"), CreateOptions.DEFAULT));
        assertEquals(404, e.code());
        assertEquals("serviceaccounts \"missing\" not found", e.getMessage());
        assertTrue(issued.isEmpty());
    }

    @Test
    void lifetimesOutsideKubesBoundsAre422() {
        StatusException e = assertThrows(StatusException.class,
                () -> rest.create(CTX, "bot", obj("{'spec':{'expirationSeconds':60}}"), CreateOptions.DEFAULT));
        assertEquals(422, e.code());
        assertEquals("TokenRequest.authentication.k8s.io \"\" is invalid: spec.expirationSeconds: Invalid value: 60: "
                + "may not specify a duration less than 10 minutes", e.getMessage());
        assertEquals("spec.expirationSeconds", e.details().causes().get(0).field());
        e = assertThrows(StatusException.class, () -> rest.create(CTX, "bot",
                obj("{'spec':{'expirationSeconds':4294967297}}"), CreateOptions.DEFAULT));
        assertTrue(e.getMessage().endsWith("may not specify a duration larger than 2^32 seconds"), e.getMessage());
        assertTrue(issued.isEmpty());
    }

    @Test
    void aNameOrNamespaceOtherThanTheUrlsIs422() {
        StatusException e = assertThrows(StatusException.class,
                () -> rest.create(CTX, "bot", obj("{'metadata':{'name':'other'}}"), CreateOptions.DEFAULT));
        assertEquals(422, e.code());
        assertEquals("TokenRequest.authentication.k8s.io \"bot\" is invalid: metadata.name: Invalid value: \"other\": "
                + "must match the service account name if specified", e.getMessage());
        e = assertThrows(StatusException.class,
                () -> rest.create(CTX, "bot", obj("{'metadata':{'namespace':'x'}}"), CreateOptions.DEFAULT));
        assertEquals("metadata.namespace", e.details().causes().get(0).field());
    }

    @Test
    void aShortenedLifetimeIsReportedInTheSpec() {
        maxExpiration = 7200;
        ObjectNode out = rest.create(CTX, "bot", obj("{'spec':{'expirationSeconds':86400}}"), CreateOptions.DEFAULT);
        assertEquals(7200, out.path("spec").path("expirationSeconds").asLong());
    }

    @Test
    void aTokenIsBoundToAPodOfTheServiceAccountOrASecret() {
        pods.objects.put("web", obj("{'metadata':{'name':'web','uid':'uid-web'},'spec':{'serviceAccountName':'bot'}}"));
        pods.objects.put("other", obj("{'metadata':{'name':'other','uid':'uid-o'},'spec':{'serviceAccountName':'x'}}"));
        secrets.objects.put("s", obj("{'metadata':{'name':'s','uid':'uid-s'}}"));

        rest.create(CTX, "bot", obj("{'spec':{'boundObjectRef':{'apiVersion':'v1','kind':'Pod','name':'web'}}}"),
                CreateOptions.DEFAULT);
        assertEquals(new TokenIssuer.BoundObject("Pod", "web", "uid-web"), issued.get(0)[3]);
        rest.create(CTX, "bot", obj("{'spec':{'boundObjectRef':{'apiVersion':'v1','kind':'Secret','name':'s',"
                + "'uid':'uid-s'}}}"), CreateOptions.DEFAULT);
        assertEquals(new TokenIssuer.BoundObject("Secret", "s", "uid-s"), issued.get(1)[3]);

        StatusException e = assertThrows(StatusException.class, () -> rest.create(CTX, "bot",
                obj("{'spec':{'boundObjectRef':{'apiVersion':'v1','kind':'Pod','name':'other'}}}"), CreateOptions.DEFAULT));
        assertEquals(400, e.code());
        assertEquals("cannot bind token for serviceaccount \"bot\" to pod running with different serviceaccount name.",
                e.getMessage());
        e = assertThrows(StatusException.class, () -> rest.create(CTX, "bot",
                obj("{'spec':{'boundObjectRef':{'apiVersion':'v1','kind':'Pod','name':'gone'}}}"), CreateOptions.DEFAULT));
        assertEquals("pods \"gone\" not found", e.getMessage());
        e = assertThrows(StatusException.class, () -> rest.create(CTX, "bot",
                obj("{'spec':{'boundObjectRef':{'apiVersion':'v1','kind':'Secret','name':'s','uid':'old'}}}"),
                CreateOptions.DEFAULT));
        assertEquals(409, e.code());
        assertTrue(e.getMessage().startsWith("Operation cannot be fulfilled on Secret \"s\": the UID in the bound object "
                + "reference (old) does not match the UID in record."), e.getMessage());
        e = assertThrows(StatusException.class, () -> rest.create(CTX, "bot",
                obj("{'spec':{'boundObjectRef':{'apiVersion':'apps/v1','kind':'Deployment','name':'d'}}}"),
                CreateOptions.DEFAULT));
        assertEquals("cannot bind token to object of type apps/v1, Kind=Deployment", e.getMessage());
        assertEquals(2, issued.size());
    }

    @Test
    void withoutAnIssuerTheSubresourceIsNotServed() {
        issuer = null;
        StatusException e = assertThrows(StatusException.class,
                () -> rest.create(CTX, "bot", obj("{'spec':{}}"), CreateOptions.DEFAULT));
        assertEquals(StatusReason.NOT_FOUND, e.reason());
        assertEquals("the server could not find the requested resource", e.getMessage());
    }
}
