package io.kubelix.support.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;

import java.util.List;

/**
 * kube's JSON Patch library (k8s.io/apiserver/pkg/cel/library/jsonpatch.go), which mutating admission
 * policies have: {@code jsonpatch.escapeKey(string)} escapes a key for a JSON Pointer path, {@code ~}
 * as {@code ~0} and {@code /} as {@code ~1}, so {@code "/metadata/labels/" + jsonpatch.escapeKey("app.kubernetes.io/name")}
 * addresses that label.
 */
final class JsonPatchLibrary {

    private JsonPatchLibrary() {
    }

    static List<CelFunctionDecl> declarations() {
        return List.of(CelFunctionDecl.newFunctionDeclaration("jsonpatch.escapeKey",
                CelOverloadDecl.newGlobalOverload("string_jsonpatch_escapeKey_string", SimpleType.STRING, SimpleType.STRING)));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(CelFunctionBinding.from("string_jsonpatch_escapeKey_string", String.class,
                k -> k.replace("~", "~0").replace("/", "~1")));
    }
}
