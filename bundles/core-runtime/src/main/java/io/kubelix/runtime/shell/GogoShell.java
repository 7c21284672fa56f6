package io.kubelix.runtime.shell;

import org.apache.felix.service.command.CommandProcessor;
import org.apache.felix.service.command.CommandSession;
import org.apache.felix.service.command.Converter;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * {@link CommandShell} on the framework's Gogo {@link CommandProcessor}. Each session is a Gogo
 * {@link CommandSession} whose standard out and error both go to one buffer, emptied after each
 * command, so a reply holds exactly what its command wrote; a result is printed as Gogo's own shell
 * prints it, and a failure as Gogo's shell reports it (its exception stays in {@code $exception}).
 * Sessions end after {@link #IDLE} without a command; beyond {@link #MAX_SESSIONS} the least
 * recently used one ends, so forgotten clients cannot pile sessions up.
 */
@Component(service = CommandShell.class)
public final class GogoShell implements CommandShell {
    static final Duration IDLE = Duration.ofMinutes(15);
    static final int MAX_SESSIONS = 32;
    /** A command's output beyond this is cut, so one command cannot fill the heap. */
    static final int MAX_OUTPUT_BYTES = 4 << 20;
    private static final Logger LOG = LoggerFactory.getLogger(GogoShell.class);

    private final CommandProcessor processor;
    private final LongSupplier nanoTime;
    private final long idleNanos;
    private final int maxSessions;
    /** Keyed by user and session id, least recently used first. */
    private final LinkedHashMap<String, Session> sessions = new LinkedHashMap<>(16, 0.75f, true);

    @Activate
    public GogoShell(@Reference CommandProcessor processor) {
        this(processor, System::nanoTime, IDLE, MAX_SESSIONS);
    }

    GogoShell(CommandProcessor processor, LongSupplier nanoTime, Duration idle, int maxSessions) {
        this.processor = processor;
        this.nanoTime = nanoTime;
        this.idleNanos = idle.toNanos();
        this.maxSessions = maxSessions;
    }

    @Deactivate
    void deactivate() {
        List<Session> all;
        synchronized (sessions) {
            all = new ArrayList<>(sessions.values());
            sessions.clear();
        }
        all.forEach(Session::close);
    }

    @Override
    public Result execute(String user, String sessionId, String commandLine) {
        if (sessionId == null) {
            Session once = new Session(processor);
            try {
                return once.execute(commandLine);
            } finally {
                once.close();
            }
        }
        return session(user, sessionId).execute(commandLine);
    }

    /** The number of sessions kept now. */
    int sessions() {
        synchronized (sessions) {
            return sessions.size();
        }
    }

    /** The user's session of that id, a new one when it expired or never was; expired and surplus sessions end. */
    private Session session(String user, String sessionId) {
        List<Session> ended = new ArrayList<>();
        Session session;
        long now = nanoTime.getAsLong();
        synchronized (sessions) {
            for (Iterator<Session> it = sessions.values().iterator(); it.hasNext(); ) {
                Session s = it.next();
                if (now - s.lastUsed >= idleNanos) {
                    it.remove();
                    ended.add(s);
                }
            }
            String key = user + '\u0000' + sessionId;
            session = sessions.get(key);
            if (session == null) {
                session = new Session(processor);
                sessions.put(key, session);
                LOG.debug("Shell session {} of user {} started", sessionId, user);
                for (Iterator<Session> it = sessions.values().iterator(); sessions.size() > maxSessions; ) {
                    ended.add(it.next());
                    it.remove();
                }
            }
            session.lastUsed = now;
        }
        ended.forEach(Session::close);
        return session;
    }

    /** One Gogo session and the buffer its streams write to; its commands run one at a time. */
    private static final class Session {
        private final BoundedBuffer buffer = new BoundedBuffer(MAX_OUTPUT_BYTES);
        private final CommandSession session;
        private volatile long lastUsed;

        Session(CommandProcessor processor) {
            this.session = processor.createSession(InputStream.nullInputStream(), buffer, buffer);
        }

        synchronized Result execute(String commandLine) {
            boolean failed = false;
            try {
                Object result = session.execute(commandLine);
                if (result != null) {
                    print(String.valueOf(session.format(result, Converter.INSPECT)));
                }
            } catch (Exception e) {
                // Gogo's shell keeps the exception for "$exception printStackTrace" and prints one line.
                session.put("exception", e);
                print("gogo: " + e.getClass().getSimpleName() + ": " + e.getMessage());
                failed = true;
            }
            session.getConsole().flush();
            return new Result(buffer.takeText(), failed);
        }

        private void print(String line) {
            session.getConsole().flush();
            byte[] bytes = (line.endsWith("\n") ? line : line + "\n").getBytes(StandardCharsets.UTF_8);
            buffer.write(bytes, 0, bytes.length);
        }

        synchronized void close() {
            session.close();
        }
    }

    /** Keeps the first {@code limit} bytes written and notes that more were cut. */
    private static final class BoundedBuffer extends OutputStream {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final int limit;
        private boolean cut;

        BoundedBuffer(int limit) {
            this.limit = limit;
        }

        @Override
        public synchronized void write(int b) {
            write(new byte[]{(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            int room = limit - bytes.size();
            if (len > room) {
                cut = true;
            }
            bytes.write(b, off, Math.max(0, Math.min(len, room)));
        }

        /** The text written since the last call, and empties the buffer. */
        synchronized String takeText() {
            String text = bytes.toString(StandardCharsets.UTF_8);
            if (cut) {
                text += "\n(output cut after " + limit + " bytes)\n";
            }
            bytes.reset();
            cut = false;
            return text;
        }
    }
}
