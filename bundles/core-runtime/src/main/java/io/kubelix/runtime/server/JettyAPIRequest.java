package io.kubelix.runtime.server;

import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.api.server.APIRequest;
import io.kubelix.runtime.request.Requests;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/** Jetty's request as the SPI's {@link APIRequest}, for the links of the server chain that plugins register. */
final class JettyAPIRequest implements APIRequest {
    private final Request request;
    private Map<String, List<String>> headers;
    private InputStream body;

    JettyAPIRequest(Request request) {
        this.request = request;
    }

    Request jetty() {
        return request;
    }

    @Override
    public String method() {
        return request.getMethod();
    }

    @Override
    public String path() {
        return Request.getPathInContext(request);
    }

    @Override
    public String rawPath() {
        return request.getHttpURI().getPath();
    }

    @Override
    public String rawQuery() {
        return request.getHttpURI().getQuery();
    }

    @Override
    public synchronized Map<String, List<String>> headers() {
        if (headers == null) {
            Map<String, List<String>> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            for (HttpField f : request.getHeaders()) {
                byName.computeIfAbsent(f.getName(), n -> new ArrayList<>()).add(f.getValue() == null ? "" : f.getValue());
            }
            byName.replaceAll((name, values) -> List.copyOf(values));
            headers = Collections.unmodifiableMap(byName);
        }
        return headers;
    }

    @Override
    public long contentLength() {
        return request.getLength();
    }

    @Override
    public synchronized InputStream body() {
        if (body == null) {
            body = Content.Source.asInputStream(request);
        }
        return body;
    }

    @Override
    public RequestInfo requestInfo() {
        return Requests.requestInfo(request);
    }

    @Override
    public UserInfo user() {
        return Requests.user(request);
    }

    @Override
    public void addFailureListener(Consumer<Throwable> listener) {
        request.addFailureListener(listener);
    }
}
