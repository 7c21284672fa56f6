package io.kubelix.support.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * kube's URL library (k8s.io/apiserver/pkg/cel/library/urls.go): {@code url(string)} and
 * {@code isURL(string)} (Go's {@code url.ParseRequestURI}: an absolute URL or an absolute path), and on
 * a URL {@code getScheme()}, {@code getHost()}, {@code getHostname()}, {@code getPort()},
 * {@code getEscapedPath()} and {@code getQuery()}.
 */
final class UrlLibrary {
    static final OpaqueType URL = OpaqueType.create("kubernetes.URL");

    private UrlLibrary() {
    }

    /** A CEL {@code kubernetes.URL}. */
    record KubeURL(URI uri) {
        @Override
        public String toString() {
            return uri.toString();
        }
    }

    static List<CelFunctionDecl> declarations() {
        return List.of(
                CelFunctionDecl.newFunctionDeclaration("url",
                        CelOverloadDecl.newGlobalOverload("string_to_url", URL, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("isURL",
                        CelOverloadDecl.newGlobalOverload("is_url_string", SimpleType.BOOL, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("getScheme",
                        CelOverloadDecl.newMemberOverload("url_get_scheme", SimpleType.STRING, URL)),
                CelFunctionDecl.newFunctionDeclaration("getHost",
                        CelOverloadDecl.newMemberOverload("url_get_host", SimpleType.STRING, URL)),
                CelFunctionDecl.newFunctionDeclaration("getHostname",
                        CelOverloadDecl.newMemberOverload("url_get_hostname", SimpleType.STRING, URL)),
                CelFunctionDecl.newFunctionDeclaration("getPort",
                        CelOverloadDecl.newMemberOverload("url_get_port", SimpleType.STRING, URL)),
                CelFunctionDecl.newFunctionDeclaration("getEscapedPath",
                        CelOverloadDecl.newMemberOverload("url_get_escaped_path", SimpleType.STRING, URL)),
                CelFunctionDecl.newFunctionDeclaration("getQuery",
                        CelOverloadDecl.newMemberOverload("url_get_query",
                                MapType.create(SimpleType.STRING, ListType.create(SimpleType.STRING)), URL)));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_url", String.class, UrlLibrary::url),
                CelFunctionBinding.from("is_url_string", String.class, s -> parseRequestURI(s) != null),
                CelFunctionBinding.from("url_get_scheme", KubeURL.class, u -> nonNull(u.uri().getScheme())),
                CelFunctionBinding.from("url_get_host", KubeURL.class, UrlLibrary::host),
                CelFunctionBinding.from("url_get_hostname", KubeURL.class, u -> nonNull(u.uri().getHost()).replaceAll("^\\[|]$", "")),
                CelFunctionBinding.from("url_get_port", KubeURL.class, u -> u.uri().getPort() < 0 ? "" : String.valueOf(u.uri().getPort())),
                CelFunctionBinding.from("url_get_escaped_path", KubeURL.class, u -> nonNull(u.uri().getRawPath())),
                CelFunctionBinding.from("url_get_query", KubeURL.class, UrlLibrary::query));
    }

    private static KubeURL url(String s) {
        URI uri = parseRequestURI(s);
        if (uri == null) {
            throw new LibraryError("URL parse error during conversion from string: parse \"" + s
                    + "\": invalid URI for request");
        }
        return new KubeURL(uri);
    }

    /** Go's url.ParseRequestURI: an absolute URL or an absolute path; null when it is neither. */
    static URI parseRequestURI(String s) {
        try {
            URI u = new URI(s);
            return u.isAbsolute() || s.startsWith("/") ? u : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /** Go's URL.Host: the host and port, without user information. */
    private static String host(KubeURL u) {
        String host = nonNull(u.uri().getHost());
        return u.uri().getPort() < 0 ? host : host + ":" + u.uri().getPort();
    }

    /** Go's URL.Query: each key's values in the order given. */
    private static Map<String, List<String>> query(KubeURL u) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        String raw = u.uri().getRawQuery();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("[&]")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            out.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
        }
        return out;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }
}
