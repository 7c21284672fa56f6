package io.kubelix.resource.authentication;

import io.kubelix.api.authn.AuthenticationChain;
import io.kubelix.api.registry.APIGroupInfo;
import io.kubelix.api.registry.RESTOptionsGetter;
import io.kubelix.api.registry.RESTStorage;
import io.kubelix.api.registry.RESTStorageProvider;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

import java.util.List;
import java.util.Map;

/**
 * The authentication.k8s.io group's RESTStorageProvider: {@code selfsubjectreviews} (who the
 * requester is) and {@code tokenreviews} (who a token is), which store nothing. (TokenRequest is
 * {@code serviceaccounts/token}, served with the service accounts.)
 */
@Component(service = RESTStorageProvider.class)
public final class AuthenticationRESTStorageProvider implements RESTStorageProvider {
    static final String GROUP = "authentication.k8s.io";
    static final String VERSION = "v1";

    private final AuthenticationChain authentication;

    @Activate
    public AuthenticationRESTStorageProvider(@Reference AuthenticationChain authentication) {
        this.authentication = authentication;
    }

    @Override
    public String groupName() {
        return GROUP;
    }

    @Override
    public APIGroupInfo newRESTStorage(RESTOptionsGetter getter) {
        Map<String, RESTStorage> v1 = Map.of("selfsubjectreviews", new SelfSubjectReviewREST(),
                "tokenreviews", new TokenReviewREST(authentication));
        return new APIGroupInfo(GROUP, List.of(VERSION), Map.of(VERSION, v1));
    }
}
