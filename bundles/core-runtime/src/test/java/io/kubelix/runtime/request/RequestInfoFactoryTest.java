package io.kubelix.runtime.request;

import io.kubelix.api.request.RequestInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The cases of k8s.io/apiserver's requestinfo_test.go (TestGetAPIRequestInfo, TestGetNonAPIRequestInfo). */
class RequestInfoFactoryTest {

    /** Expected: verb, apiPrefix, group, version, namespace, resource, name, subresource, parts. */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            // method | path | verb | prefix | group | version | namespace | resource | name | subresource | parts
            "GET    | /api/v1/namespaces                                 | list             | api  |      | v1      |       | namespaces  |       |          | namespaces",
            "GET    | /api/v1/namespaces/other                           | get              | api  |      | v1      | other | namespaces  | other |          | namespaces other",
            "GET    | /api/v1/namespaces/other/status                    | get              | api  |      | v1      | other | namespaces  | other | status   | namespaces other status",
            "PUT    | /api/v1/namespaces/other/finalize                  | update           | api  |      | v1      | other | namespaces  | other | finalize | namespaces other finalize",
            "GET    | /api/v1/namespaces/other/pods                      | list             | api  |      | v1      | other | pods        |       |          | pods",
            "GET    | /api/v1/namespaces/other/pods/foo                  | get              | api  |      | v1      | other | pods        | foo   |          | pods foo",
            "HEAD   | /api/v1/namespaces/other/pods/foo                  | get              | api  |      | v1      | other | pods        | foo   |          | pods foo",
            "GET    | /api/v1/pods                                       | list             | api  |      | v1      |       | pods        |       |          | pods",
            "GET    | /api/v1/nodes/foo                                  | get              | api  |      | v1      |       | nodes       | foo   |          | nodes foo",
            "POST   | /api/v1/namespaces/other/pods                      | create           | api  |      | v1      | other | pods        |       |          | pods",
            "PUT    | /api/v1/namespaces/other/pods/foo                  | update           | api  |      | v1      | other | pods        | foo   |          | pods foo",
            "PATCH  | /api/v1/namespaces/other/pods/foo                  | patch            | api  |      | v1      | other | pods        | foo   |          | pods foo",
            "DELETE | /api/v1/namespaces/other/pods/foo                  | delete           | api  |      | v1      | other | pods        | foo   |          | pods foo",
            "DELETE | /api/v1/namespaces/other/pods                      | deletecollection | api  |      | v1      | other | pods        |       |          | pods",
            "PUT    | /api/v1/namespaces/other/pods/foo/status           | update           | api  |      | v1      | other | pods        | foo   | status   | pods foo status",
            "GET    | /api/v1/namespaces/other/pods/foo/log/extra/parts  | get              | api  |      | v1      | other | pods        | foo   | log      | pods foo log extra parts",
            "GET    | /api/v1/watch/pods                                 | watch            | api  |      | v1      |       | pods        |       |          | pods",
            "GET    | /api/v1/watch/namespaces/other/pods                | watch            | api  |      | v1      | other | pods        |       |          | pods",
            "GET    | /api/v1/watch/namespaces/other/pods/foo            | watch            | api  |      | v1      | other | pods        | foo   |          | pods foo",
            "GET    | /apis/extensions/v1beta1/namespaces/other/pods     | list             | apis | extensions | v1beta1 | other | pods  |       |          | pods",
            "GET    | /apis/apps/v1/namespaces/other/deployments/foo/scale | get            | apis | apps | v1      | other | deployments | foo   | scale    | deployments foo scale",
            "GET    | /apis/rbac.authorization.k8s.io/v1/clusterroles    | list             | apis | rbac.authorization.k8s.io | v1 | | clusterroles | |        | clusterroles",
            "GET    | /api/v1/namespaces/other/configmaps/                | list             | api  |      | v1      | other | configmaps  |       |          | configmaps",
    })
    void resourceRequests(String method, String path, String verb, String prefix, String group, String version,
                          String namespace, String resource, String name, String subresource, String parts) {
        RequestInfo info = RequestInfoFactory.newRequestInfo(method, path, null);

        assertTrue(info.resourceRequest(), path);
        assertEquals(path, info.path());
        assertEquals(verb, info.verb(), "verb");
        assertEquals(prefix, info.apiPrefix(), "apiPrefix");
        assertEquals(s(group), info.apiGroup(), "apiGroup");
        assertEquals(version, info.apiVersion(), "apiVersion");
        assertEquals(s(namespace), info.namespace(), "namespace");
        assertEquals(resource, info.resource(), "resource");
        assertEquals(s(name), info.name(), "name");
        assertEquals(s(subresource), info.subresource(), "subresource");
        assertEquals(List.of(parts.split(" ")), info.parts(), "parts");
    }

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(strings = {"true", "1", "TRUE", "True", "yes", ""})
    void anyWatchValueButFalseOrZeroMakesACollectionGetAWatch(String watch) {
        // apimachinery's Convert_Slice_string_To_bool: only "0" and "false" (any case) are false.
        RequestInfo info = RequestInfoFactory.newRequestInfo("GET", "/api/v1/namespaces/default/configmaps", watch);

        assertEquals("watch", info.verb());
        assertEquals("configmaps", info.resource());
        assertEquals("", info.name());
    }

    @ParameterizedTest(name = "watch={0}")
    @ValueSource(strings = {"false", "FALSE", "0"})
    void watchFalseOrZeroIsAList(String watch) {
        assertEquals("list", RequestInfoFactory.newRequestInfo("GET", "/api/v1/namespaces/default/configmaps", watch)
                .verb());
    }

    @Test
    void watchParameterDoesNotTurnANamedGetIntoAWatch() {
        RequestInfo info = RequestInfoFactory.newRequestInfo("GET", "/api/v1/namespaces/default/configmaps/a", "true");

        assertEquals("get", info.verb());
        assertEquals("a", info.name());
    }

    @Test
    void watchParameterDoesNotChangeOtherMethods() {
        assertEquals("create", RequestInfoFactory.newRequestInfo("POST", "/api/v1/namespaces/default/configmaps", "true")
                .verb());
        assertEquals("deletecollection",
                RequestInfoFactory.newRequestInfo("DELETE", "/api/v1/namespaces/default/configmaps", "true").verb());
    }

    @Test
    void unknownMethodHasNoVerb() {
        RequestInfo info = RequestInfoFactory.newRequestInfo("OPTIONS", "/api/v1/namespaces/default/configmaps/a", null);

        assertTrue(info.resourceRequest());
        assertEquals("", info.verb());
    }

    @Test
    void namespaceWithoutNameIsTheNamespacesCollection() {
        // "/api/v1/namespaces" lists namespaces; it is not a namespace called "".
        RequestInfo info = RequestInfoFactory.newRequestInfo("POST", "/api/v1/namespaces", null);

        assertEquals("create", info.verb());
        assertEquals("namespaces", info.resource());
        assertEquals("", info.namespace());
    }

    @Test
    void resourceNamedLikeANamespaceSubresourceInsideANamespace() {
        // Only status and finalize directly after the namespace name are its subresources.
        RequestInfo info = RequestInfoFactory.newRequestInfo("GET", "/api/v1/namespaces/other/secrets/status", null);

        assertEquals("secrets", info.resource());
        assertEquals("status", info.name());
        assertEquals("", info.subresource());
        assertEquals("other", info.namespace());
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "GET    | /                   | get",
            "GET    | /api                | get",
            "GET    | /api/v1             | get",
            "GET    | /api/v1/            | get",
            "GET    | /apis               | get",
            "GET    | /apis/apps          | get",
            "GET    | /apis/apps/v1       | get",
            "GET    | /healthz            | get",
            "GET    | /healthz/ping       | get",
            "GET    | /version            | get",
            "GET    | /openapi/v3         | get",
            "GET    | /other/v1/pods      | get",
            "POST   | /api                | post",
            "DELETE | /apis/apps/v1       | delete",
    })
    void nonResourceRequests(String method, String path, String verb) {
        RequestInfo info = RequestInfoFactory.newRequestInfo(method, path, null);

        assertFalse(info.resourceRequest(), path);
        assertEquals(path, info.path());
        assertEquals(verb, info.verb(), "a non-resource request's verb is the lower-cased method");
        assertEquals("", info.resource());
        assertEquals("", info.namespace());
        assertEquals("", info.apiGroup());
        assertEquals("", info.apiVersion());
        assertTrue(info.parts().isEmpty());
    }

    private static String s(String csv) {
        return csv == null ? "" : csv;
    }
}
