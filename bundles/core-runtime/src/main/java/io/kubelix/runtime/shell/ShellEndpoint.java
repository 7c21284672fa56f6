package io.kubelix.runtime.shell;

import io.kubelix.api.errors.StatusException;
import io.kubelix.api.errors.StatusReason;
import io.kubelix.runtime.endpoints.responsewriters.Responses;
import io.kubelix.runtime.plugins.KubelixEndpoint;
import io.kubelix.runtime.request.Requests;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * {@code POST /kubelix/shell}: the body is one Gogo command line, the answer its output as
 * {@code text/plain}, with {@value #FAILED_HEADER} when the command failed. The header
 * {@value #SESSION_HEADER} names a session of the caller's that keeps variables and the current
 * directory between lines; without it each line runs in a session of its own. Authorized as a
 * non-resource request: verb {@code post} on path {@code /kubelix/shell}, which by default only
 * cluster-admin and {@code system:masters} hold, since a Gogo shell controls the whole framework.
 * Without Gogo's runtime in the framework the answer is 503 ServiceUnavailable.
 */
@Component(service = KubelixEndpoint.class)
public final class ShellEndpoint implements KubelixEndpoint {
    static final String PATH = ROOT + "/shell";
    static final String SESSION_HEADER = "X-Kubelix-Shell-Session";
    static final String FAILED_HEADER = "X-Kubelix-Shell-Failed";
    /** A command line is typed by a person: 64 KiB is far more than one needs. */
    static final int MAX_COMMAND_BYTES = 64 * 1024;
    private static final Pattern SESSION_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    @Reference(cardinality = ReferenceCardinality.OPTIONAL, policy = ReferencePolicy.DYNAMIC,
            policyOption = ReferencePolicyOption.GREEDY)
    private volatile CommandShell shell;

    public ShellEndpoint() {
    }

    /** With a fixed shell (null: none), outside a DS container. */
    public ShellEndpoint(CommandShell shell) {
        this.shell = shell;
    }

    @Override
    public boolean serve(Request request, Response response, Callback callback, String path) {
        if (!path.equals(PATH) && !path.equals(PATH + "/")) {
            return false;
        }
        if (!request.getMethod().equals("POST")) {
            throw new StatusException(StatusReason.METHOD_NOT_ALLOWED,
                    "the server does not allow this method on the requested resource");
        }
        String sessionId = request.getHeaders().get(SESSION_HEADER);
        if (sessionId != null && !SESSION_ID.matcher(sessionId).matches()) {
            throw StatusException.badRequest(SESSION_HEADER
                    + " must be 1 to 64 letters, digits, '.', '_' or '-'");
        }
        String commandLine = commandLine(request);
        CommandShell current = shell;
        if (current == null) {
            throw StatusException.serviceUnavailable("the shell is not available: the Gogo runtime bundle"
                    + " (org.apache.felix.gogo.runtime) is not installed and active in this framework");
        }
        CommandShell.Result result = current.execute(Requests.user(request).name(), sessionId, commandLine);
        if (result.failed()) {
            response.getHeaders().put(FAILED_HEADER, "true");
        }
        Responses.write(response, callback, 200, "text/plain; charset=utf-8",
                result.output().getBytes(StandardCharsets.UTF_8));
        return true;
    }

    private static String commandLine(Request request) {
        if (request.getLength() > MAX_COMMAND_BYTES) {
            throw tooLarge();
        }
        try (InputStream in = Content.Source.asInputStream(request)) {
            byte[] bytes = in.readNBytes(MAX_COMMAND_BYTES + 1);
            if (bytes.length > MAX_COMMAND_BYTES) {
                throw tooLarge();
            }
            request.setAttribute(Responses.BODY_READ, Boolean.TRUE);
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static StatusException tooLarge() {
        return StatusException.requestEntityTooLarge("a shell command line is limited to " + MAX_COMMAND_BYTES
                + " bytes");
    }
}
