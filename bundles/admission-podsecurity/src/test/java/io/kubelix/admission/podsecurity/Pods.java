package io.kubelix.admission.podsecurity;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Test pods written in JSON with single quotes. */
final class Pods {
    static final ObjectMapper JSON = new ObjectMapper();

    private Pods() {
    }

    static ObjectNode json(String singleQuoted) {
        try {
            return (ObjectNode) JSON.readTree(singleQuoted.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(singleQuoted, e);
        }
    }

    /** A pod with {@code spec}, named {@code p}. */
    static ObjectNode pod(String spec) {
        return json("{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p'},'spec':" + spec + "}");
    }

    /** A container {@code c} of image {@code nginx} with {@code securityContext}. */
    static String container(String name, String securityContext) {
        return "{'name':'" + name + "','image':'nginx','securityContext':" + securityContext + "}";
    }

    /** A container that passes the restricted level. */
    static String restrictedContainer(String name) {
        return container(name, "{'allowPrivilegeEscalation':false,'capabilities':{'drop':['ALL']}}");
    }

    /** Pod-level settings that, with restricted containers, pass the restricted level. */
    static final String RESTRICTED_POD = "'securityContext':{'runAsNonRoot':true,'seccompProfile':{'type':'RuntimeDefault'}}";
}
