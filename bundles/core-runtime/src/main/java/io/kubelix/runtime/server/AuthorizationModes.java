package io.kubelix.runtime.server;

import io.kubelix.api.authz.AuthorizationDecision;
import io.kubelix.api.authz.Authorizer;
import io.kubelix.api.authz.RuleResolver;
import io.kubelix.api.authz.SubjectRules;
import io.kubelix.api.request.RequestInfo;
import io.kubelix.api.request.UserInfo;
import io.kubelix.support.flags.ReloadingFile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The authorizers kube-apiserver asks, in order: those of {@code --authorization-mode} (default
 * {@code RBAC}), or the entries of an {@code AuthorizationConfiguration} file
 * ({@code --authorization-config}, reloaded when it changes; a malformed new file is logged and the
 * last good one kept). Each entry, a type and a name, is served by the authorizer plugins registered
 * under its type ({@link Authorizer#MODE}) and name ({@link Authorizer#NAME}, by default the name
 * kube gives a mode's entry); {@code AlwaysDeny} is built in. Authorizers that name no mode (a
 * custom plugin's) are asked after the entries. A configured entry without an installed authorizer
 * keeps the server from being ready, with a message naming it.
 */
final class AuthorizationModes implements Supplier<List<Authorizer>> {
    static final String ALWAYS_ALLOW = "AlwaysAllow";
    static final String ALWAYS_DENY = "AlwaysDeny";
    static final String RBAC = "RBAC";
    /** kube's name of the webhook entry that {@code --authorization-mode=Webhook} makes. */
    static final String DEFAULT_WEBHOOK_NAME = "default";
    static final Duration RELOAD_INTERVAL = Duration.ofSeconds(1);
    private static final List<String> KNOWN = List.of(ALWAYS_ALLOW, ALWAYS_DENY, "ABAC", "Webhook", RBAC, "Node");
    private static final Authorizer DENY_ALL = new AlwaysDeny();
    private static final List<Authorizer> ALWAYS_DENY_LIST = List.of(DENY_ALL);

    /** One authorizer of the chain: its type and name, as an AuthorizationConfiguration entry. */
    record Entry(String type, String name) {
        /** The entry {@code --authorization-mode} makes of a mode, named as kube names it. */
        static Entry ofMode(String mode) {
            return new Entry(mode, mode.equals("Webhook") ? DEFAULT_WEBHOOK_NAME : mode.toLowerCase(Locale.ROOT));
        }

        /** The entry an authorizer serves, from its service properties; null when it names no mode. */
        static Entry of(Map<String, ?> properties) {
            Object mode = properties.get(Authorizer.MODE);
            if (mode == null) {
                return null;
            }
            Object name = properties.get(Authorizer.NAME);
            return name == null ? ofMode(mode.toString()) : new Entry(mode.toString(), name.toString());
        }

        @Override
        public String toString() {
            return name.equals(ofMode(type).name()) ? type : type + " \"" + name + "\"";
        }
    }

    /** kube's AlwaysDeny: denies everything, and lists no rules. */
    private static final class AlwaysDeny implements Authorizer, RuleResolver {
        @Override
        public AuthorizationDecision authorize(UserInfo user, RequestInfo request) {
            return AuthorizationDecision.deny("");
        }

        @Override
        public SubjectRules rulesFor(UserInfo user, String namespace) {
            return SubjectRules.none();
        }
    }

    /** The entries asked, in order; a reloading file's content, or the flag's fixed list. */
    private final Supplier<List<Entry>> layout;
    private final PluginSwaps swaps;
    /** Every authorizer that names a mode, by the entry it serves, configured or not (a reload may ask it). */
    private final Map<Entry, RankedServices<Authorizer>> byEntry = new ConcurrentHashMap<>();
    private final RankedServices<Authorizer> unnamed;
    private volatile Combined combined;

    private AuthorizationModes(Supplier<List<Entry>> layout, PluginSwaps swaps) {
        this.layout = layout;
        this.swaps = swaps;
        unnamed = new RankedServices<>(swaps);
    }

    /** Parses the setting's value, a comma-separated list, with kube-apiserver's messages for a bad one. */
    static AuthorizationModes parse(String value, PluginSwaps swaps) {
        List<Entry> entries = new ArrayList<>();
        for (String mode : value.split(",")) {
            String m = mode.trim();
            if (m.isEmpty()) {
                continue;
            }
            if (!KNOWN.contains(m)) {
                throw new IllegalArgumentException("authorization-mode \"" + m + "\" is not a valid mode (valid: "
                        + String.join(", ", KNOWN) + ")");
            }
            if (entries.contains(Entry.ofMode(m))) {
                throw new IllegalArgumentException("authorization-mode \"" + m + "\" has mode specified more than once");
            }
            entries.add(Entry.ofMode(m));
        }
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("at least one authorization-mode must be passed");
        }
        List<Entry> fixed = List.copyOf(entries);
        return new AuthorizationModes(() -> fixed, swaps);
    }

    /**
     * The authorizers of an {@code AuthorizationConfiguration} file, refused at start with kube's
     * message when it is malformed, as kube-apiserver refuses to start. A later change is read
     * within {@link #RELOAD_INTERVAL}; one that is malformed, drops a non-webhook type, or removes
     * the file keeps the last good entries.
     */
    static AuthorizationModes fromFile(Path file, PluginSwaps swaps) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalArgumentException("authorization-config: cannot read " + file + ": " + e.getMessage());
        }
        List<Entry> initial = AuthorizationConfigFile.parse(text, Set.of());
        Set<String> required = initial.stream().map(Entry::type)
                .filter(t -> !t.equals(AuthorizationConfigFile.WEBHOOK)).collect(Collectors.toUnmodifiableSet());
        ReloadingFile<List<Entry>> reloading = new ReloadingFile<>("Authorization configuration", file,
                RELOAD_INTERVAL, System::nanoTime, null, t -> AuthorizationConfigFile.parse(t, required),
                e -> e == null ? "no authorizers" : e.size() + " authorizer(s) " + e);
        LastGood last = new LastGood(initial, reloading);
        return new AuthorizationModes(last, swaps);
    }

    /** A reloading file's entries, or the last it had while it is removed. */
    private static final class LastGood implements Supplier<List<Entry>> {
        private final ReloadingFile<List<Entry>> file;
        private volatile List<Entry> last;

        LastGood(List<Entry> initial, ReloadingFile<List<Entry>> file) {
            this.last = initial;
            this.file = file;
        }

        @Override
        public List<Entry> get() {
            List<Entry> current = file.current();
            if (current != null && current != last) {
                last = current;
            }
            return last;
        }
    }

    /** The configured entries, for messages. */
    List<String> modes() {
        return layout.get().stream().map(Entry::toString).toList();
    }

    /**
     * kube-apiserver turns anonymous requests off with {@code AlwaysAllow}: they would be allowed
     * everything.
     */
    boolean allowsAnonymous() {
        return layout.get().stream().noneMatch(e -> e.type().equals(ALWAYS_ALLOW));
    }

    void add(Authorizer authorizer, Map<String, ?> properties) {
        services(properties).add(authorizer, properties);
    }

    /** Answers whether the authorizer is being swapped for a new revision of its plugin. */
    boolean remove(Authorizer authorizer, Map<String, ?> properties) {
        return services(properties).remove(authorizer, properties);
    }

    /** Whether an authorizer is asked now: its entry is configured, or it names no mode. */
    boolean asks(Map<String, ?> properties) {
        Entry entry = Entry.of(properties);
        return entry == null || layout.get().contains(entry);
    }

    /** The configured entries that no installed authorizer serves. */
    List<String> unserved() {
        List<String> missing = new ArrayList<>();
        for (Entry e : layout.get()) {
            if (!e.type().equals(ALWAYS_DENY) && servicesOf(e).get().isEmpty()) {
                missing.add(e.toString());
            }
        }
        return missing;
    }

    /**
     * The authorizers to ask, in order. Asked on every request: the combined list is kept and
     * rebuilt only when the entries or one of their lists changed (each is an immutable snapshot,
     * replaced when an authorizer comes or goes), so a request allocates nothing here.
     */
    @Override
    public List<Authorizer> get() {
        List<Entry> entries = layout.get();
        Combined c = combined;
        if (c != null && c.current(this, entries)) {
            return c.all();
        }
        List<?>[] parts = new List<?>[entries.size() + 1];
        List<Authorizer> all = new ArrayList<>(4);
        for (int i = 0; i < parts.length; i++) {
            parts[i] = part(entries, i);
            for (Object a : parts[i]) {
                all.add((Authorizer) a);
            }
        }
        Combined rebuilt = new Combined(entries, parts, List.copyOf(all));
        combined = rebuilt;
        return rebuilt.all();
    }

    private List<?> part(List<Entry> entries, int i) {
        if (i == entries.size()) {
            return unnamed.get();
        }
        Entry e = entries.get(i);
        return e.type().equals(ALWAYS_DENY) ? ALWAYS_DENY_LIST : servicesOf(e).get();
    }

    /** The entries and lists the combined list was built from (compared by identity), and it. */
    private record Combined(List<Entry> entries, List<?>[] parts, List<Authorizer> all) {
        boolean current(AuthorizationModes modes, List<Entry> now) {
            if (now != entries) {
                return false;
            }
            for (int i = 0; i < parts.length; i++) {
                if (modes.part(entries, i) != parts[i]) {
                    return false;
                }
            }
            return true;
        }
    }

    private RankedServices<Authorizer> servicesOf(Entry entry) {
        return byEntry.computeIfAbsent(entry, e -> new RankedServices<>(swaps));
    }

    private RankedServices<Authorizer> services(Map<String, ?> properties) {
        Entry entry = Entry.of(properties);
        return entry == null ? unnamed : servicesOf(entry);
    }
}
