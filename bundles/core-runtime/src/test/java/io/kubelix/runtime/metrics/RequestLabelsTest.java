package io.kubelix.runtime.metrics;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.runtime.request.RequestInfoFactory;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The verb and scope labels kube-apiserver's endpoint metrics give requests. */
class RequestLabelsTest {

    private static RequestLabels labels(String method, String path, String watch, String contentType, String... dryRun) {
        RequestInfo info = RequestInfoFactory.newRequestInfo(method, path, watch);
        return RequestLabels.of(info, method, contentType, List.of(dryRun));
    }

    @Test
    void verbsAndScopesAsKubeReportsThem() {
        assertEquals(new RequestLabels("GET", "", "apps", "v1", "deployments", "", "resource"),
                labels("GET", "/apis/apps/v1/namespaces/ns/deployments/web", null, null));
        assertEquals(new RequestLabels("LIST", "", "", "v1", "configmaps", "", "namespace"),
                labels("GET", "/api/v1/namespaces/ns/configmaps", null, null));
        assertEquals(new RequestLabels("LIST", "", "", "v1", "configmaps", "", "cluster"),
                labels("GET", "/api/v1/configmaps", null, null));
        assertEquals("WATCH", labels("GET", "/api/v1/namespaces/ns/configmaps", "true", null).verb());
        assertEquals("WATCH", labels("GET", "/api/v1/watch/namespaces/ns/configmaps", null, null).verb());
        assertEquals(new RequestLabels("POST", "All", "", "v1", "configmaps", "", "resource"),
                labels("POST", "/api/v1/namespaces/ns/configmaps", null, "application/json", "All"));
        assertEquals("invalid", labels("POST", "/api/v1/namespaces/ns/configmaps", null, null, "Some").dryRun());
        assertEquals("APPLY", labels("PATCH", "/api/v1/namespaces/ns/configmaps/c", null,
                "application/apply-patch+yaml").verb());
        assertEquals("PATCH", labels("PATCH", "/api/v1/namespaces/ns/configmaps/c", null,
                "application/merge-patch+json").verb());
        assertEquals(new RequestLabels("PUT", "", "apps", "v1", "deployments", "scale", "resource"),
                labels("PUT", "/apis/apps/v1/namespaces/ns/deployments/web/scale", null, null));
        assertEquals("CONNECT", labels("POST", "/api/v1/namespaces/ns/pods/p/exec", null, null).verb());
        assertEquals("DELETE", labels("DELETE", "/api/v1/namespaces/ns/configmaps", null, null).verb());
    }
}
