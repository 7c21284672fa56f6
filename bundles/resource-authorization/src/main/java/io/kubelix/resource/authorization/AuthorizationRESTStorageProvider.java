package io.kubelix.resource.authorization;

import io.kubelix.api.authz.AuthorizationChain;
import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The authorization.k8s.io group's RESTStorageProvider: four create-only review resources that
 * store nothing and answer with the review's {@code status}, decided by the same authorization
 * chain that requests meet.
 */
@Component(service = RESTStorageProvider.class)
public final class AuthorizationRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "authorization.k8s.io";
    static final String VERSION = "v1";
    private static final Logger LOG = LoggerFactory.getLogger(AuthorizationRESTStorageProvider.class);

    private final AuthorizationChain authorization;

    @Activate
    public AuthorizationRESTStorageProvider(@Reference AuthorizationChain authorization) {
        this.authorization = authorization;
    }

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, RESTStorage> v1 = new LinkedHashMap<>();
        v1.put("selfsubjectaccessreviews", new AccessReviewREST(AccessReviewREST.Kind.SELF, authorization));
        v1.put("subjectaccessreviews", new AccessReviewREST(AccessReviewREST.Kind.SUBJECT, authorization));
        v1.put("localsubjectaccessreviews", new AccessReviewREST(AccessReviewREST.Kind.LOCAL, authorization));
        v1.put("selfsubjectrulesreviews", new RulesReviewREST(authorization));
        LOG.info("built authorization.k8s.io/v1 storage: {}", v1.keySet());
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, v1));
    }
}
