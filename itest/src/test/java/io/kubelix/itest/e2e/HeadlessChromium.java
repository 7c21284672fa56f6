package io.kubelix.itest.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real headless Chromium (Debian's {@code chromium}, or {@code kubelix.itest.chromium}) driven
 * over the DevTools protocol on a WebSocket: navigate, evaluate JavaScript in the page, take a PNG
 * screenshot. Started with its own profile under the test's work directory on a free debugging
 * port, and ended by its PID only.
 */
final class HeadlessChromium implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LISTENING = Pattern.compile("DevTools listening on (ws://\\S+)");
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> calls = new ConcurrentHashMap<>();

    private HeadlessChromium(Process process, WebSocket socket) {
        this.process = process;
        this.socket = socket;
    }

    /** The browser to run: {@code kubelix.itest.chromium}, else Debian's {@code chromium} on the usual paths. */
    static Optional<Path> find() {
        String configured = System.getProperty("kubelix.itest.chromium", "");
        List<String> candidates = configured.isBlank()
                ? List.of("/usr/bin/chromium", "/usr/bin/chromium-browser") : List.of(configured);
        return candidates.stream().map(Path::of).filter(Files::isExecutable).findFirst();
    }

    static HeadlessChromium start(Path executable, Path work) throws IOException, InterruptedException {
        Path profile = Files.createDirectories(work.resolve("chromium-profile"));
        Path log = work.resolve("chromium.log");
        // --no-sandbox: the tests may run as root, where Chromium's sandbox refuses to start.
        // --ignore-certificate-errors: the server's certificate is signed by its own fresh CA.
        Process process = new ProcessBuilder(executable.toString(), "--headless=new", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--no-default-browser-check", "--ignore-certificate-errors",
                "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
                "--user-data-dir=" + profile, "--window-size=1280,1000", "about:blank")
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            String browser = awaitDebuggingUrl(process, log);
            URI base = URI.create(browser.replaceFirst("^ws://", "http://").replaceFirst("/devtools/.*$", ""));
            HttpClient http = HttpClient.newHttpClient();
            JsonNode targets = JSON.readTree(http.send(HttpRequest.newBuilder(base.resolve("/json/list")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            String page = null;
            for (JsonNode t : targets) {
                if (t.path("type").asText().equals("page")) {
                    page = t.path("webSocketDebuggerUrl").asText();
                    break;
                }
            }
            if (page == null) {
                throw new IOException("Chromium has no page to drive: " + targets);
            }
            HeadlessChromium[] self = new HeadlessChromium[1];
            WebSocket socket = http.newWebSocketBuilder().buildAsync(URI.create(page), new WebSocket.Listener() {
                private final StringBuilder message = new StringBuilder();

                @Override
                public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
                    message.append(data);
                    if (last) {
                        String text = message.toString();
                        message.setLength(0);
                        self[0].answer(text);
                    }
                    ws.request(1);
                    return null;
                }
            }).get(30, TimeUnit.SECONDS);
            self[0] = new HeadlessChromium(process, socket);
            return self[0];
        } catch (Exception e) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new IOException("cannot drive Chromium: " + e + "\n" + Files.readString(log), e);
        }
    }

    private static String awaitDebuggingUrl(Process process, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            Matcher m = LISTENING.matcher(Files.readString(log, StandardCharsets.UTF_8));
            if (m.find()) {
                return m.group(1);
            }
            if (!process.isAlive()) {
                throw new IOException("Chromium exited with " + process.exitValue());
            }
            Thread.sleep(100);
        }
        throw new IOException("Chromium did not open its debugging port within 60 s");
    }

    private void answer(String text) {
        try {
            JsonNode message = JSON.readTree(text);
            if (message.has("id")) {
                CompletableFuture<JsonNode> call = calls.remove(message.get("id").asInt());
                if (call != null) {
                    call.complete(message);
                }
            }
        } catch (IOException e) {
            // not JSON: nothing waits for it
        }
    }

    /** One DevTools call; its {@code result}, or an error naming what the browser said. */
    JsonNode call(String method, ObjectNode params) throws Exception {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> answer = new CompletableFuture<>();
        calls.put(id, answer);
        ObjectNode request = JSON.createObjectNode().put("id", id).put("method", method);
        request.set("params", params);
        socket.sendText(JSON.writeValueAsString(request), true).get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        JsonNode message = answer.get(CALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (message.has("error")) {
            throw new IllegalStateException(method + ": " + message.get("error"));
        }
        return message.path("result");
    }

    void navigate(String url) throws Exception {
        call("Page.navigate", JSON.createObjectNode().put("url", url));
    }

    /** Evaluates {@code expression} in the page; its value as text (JSON for objects). */
    String eval(String expression) throws Exception {
        JsonNode r = call("Runtime.evaluate", JSON.createObjectNode().put("expression", expression)
                .put("returnByValue", true).put("awaitPromise", true));
        if (r.has("exceptionDetails")) {
            throw new IllegalStateException(expression + " threw " + r.get("exceptionDetails"));
        }
        JsonNode value = r.path("result").path("value");
        return value.isTextual() ? value.asText() : value.toString();
    }

    /** A PNG of the page as it is drawn now. */
    byte[] screenshot() throws Exception {
        return Base64.getDecoder().decode(call("Page.captureScreenshot",
                JSON.createObjectNode().put("format", "png")).path("data").asText());
    }

    @Override
    public void close() throws InterruptedException {
        socket.abort();
        KubelixServer.terminate(process, "chromium", 10);
    }
}
