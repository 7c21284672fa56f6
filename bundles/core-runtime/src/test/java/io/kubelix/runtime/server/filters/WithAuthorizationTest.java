package io.kubelix.runtime.server.filters;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.api.request.UserInfo;
import io.kubelix.runtime.request.RequestInfoFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** kube-apiserver's forbidden messages: responsewriters.forbiddenMessage wrapped by apierrors.NewForbidden. */
class WithAuthorizationTest {
    private static final UserInfo X = new UserInfo("x", "", List.of(UserInfo.ALL_AUTHENTICATED), Map.of());

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "GET    | /api/v1/namespaces/default/configmaps          | | configmaps is forbidden: User \"x\" cannot list resource \"configmaps\" in API group \"\" in the namespace \"default\"",
            "GET    | /api/v1/namespaces/default/configmaps/a        | | configmaps \"a\" is forbidden: User \"x\" cannot get resource \"configmaps\" in API group \"\" in the namespace \"default\"",
            "POST   | /api/v1/namespaces/default/configmaps          | | configmaps is forbidden: User \"x\" cannot create resource \"configmaps\" in API group \"\" in the namespace \"default\"",
            "GET    | /api/v1/nodes                                  | | nodes is forbidden: User \"x\" cannot list resource \"nodes\" in API group \"\" at the cluster scope",
            "DELETE | /api/v1/namespaces/kube-system                 | | namespaces \"kube-system\" is forbidden: User \"x\" cannot delete resource \"namespaces\" in API group \"\" in the namespace \"kube-system\"",
            "GET    | /apis/apps/v1/namespaces/default/deployments   | | deployments.apps is forbidden: User \"x\" cannot list resource \"deployments\" in API group \"apps\" in the namespace \"default\"",
            "PUT    | /apis/apps/v1/namespaces/default/deployments/web/scale | | deployments.apps \"web\" is forbidden: User \"x\" cannot update resource \"deployments/scale\" in API group \"apps\" in the namespace \"default\"",
            "GET    | /api/v1/namespaces/default/pods/p/log          | | pods \"p\" is forbidden: User \"x\" cannot get resource \"pods/log\" in API group \"\" in the namespace \"default\"",
            "GET    | /api/v1/namespaces/default/secrets             | RBAC: no rule | secrets is forbidden: User \"x\" cannot list resource \"secrets\" in API group \"\" in the namespace \"default\": RBAC: no rule",
            "GET    | /metrics                                       | | forbidden: User \"x\" cannot get path \"/metrics\"",
            "POST   | /apis                                          | | forbidden: User \"x\" cannot post path \"/apis\"",
    })
    void forbiddenMessage(String method, String path, String reason, String expected) {
        StatusException e = WithAuthorization.forbidden(X, RequestInfoFactory.newRequestInfo(method, path, null),
                reason == null ? "" : reason);

        assertEquals(403, e.code());
        assertEquals(StatusReason.FORBIDDEN, e.reason());
        assertEquals(expected, e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "/apis/apps/v1/namespaces/default/deployments/web/scale | web | apps | deployments",
            "/api/v1/namespaces/default/configmaps                  |     |      | configmaps",
    })
    void forbiddenDetailsNameTheGroupResource(String path, String name, String group, String kind) {
        StatusException e = WithAuthorization.forbidden(X, RequestInfoFactory.newRequestInfo("GET", path, null), "");

        assertEquals(name == null ? "" : name, e.details().name());
        assertEquals(group == null ? "" : group, e.details().group());
        assertEquals(kind, e.details().kind());
    }
}
