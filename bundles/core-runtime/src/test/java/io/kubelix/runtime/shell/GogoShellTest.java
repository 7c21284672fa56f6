package io.kubelix.runtime.shell;

import org.apache.felix.gogo.runtime.CommandProcessorImpl;
import org.apache.felix.gogo.runtime.threadio.ThreadIOImpl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** GogoShell on Gogo's real runtime: output capture, sessions kept per user and id, their expiry and bound. */
class GogoShellTest {
    private final ThreadIOImpl threadIO = new ThreadIOImpl();
    private final AtomicLong now = new AtomicLong();
    private CommandProcessorImpl processor;
    private GogoShell shell;

    @BeforeEach
    void start() {
        threadIO.start();
        processor = new CommandProcessorImpl(threadIO);
        processor.addCommand("test", new TestCommands());
        shell = new GogoShell(processor, now::get, Duration.ofMinutes(15), 2);
    }

    @AfterEach
    void stop() {
        shell.deactivate();
        processor.stop();
        threadIO.stop();
    }

    @Test
    void aResultIsPrintedAndWhatACommandWritesIsCaptured() {
        assertEquals(new CommandShell.Result("hello world\n", false), shell.execute("admin", null, "test:hello world"));
        assertEquals(new CommandShell.Result("to out\nto err\n", false), shell.execute("admin", null, "test:say"));
    }

    @Test
    void aFailingCommandIsItsExceptionsMessageNotAStackTrace() {
        CommandShell.Result failed = shell.execute("admin", "s1", "test:fail");
        assertTrue(failed.failed());
        assertEquals("written first\ngogo: IllegalStateException: the disk is on fire\n", failed.output());

        CommandShell.Result unknown = shell.execute("admin", "s1", "nope");
        assertTrue(unknown.failed());
        assertEquals("gogo: CommandNotFoundException: Command not found: nope\n", unknown.output());
        assertEquals("Command not found: nope\n", shell.execute("admin", "s1", "$exception message").output(),
                "the exception stays in $exception, as in Gogo's own shell");
    }

    @Test
    void variablesCarryOverInTheUsersSessionOnly() {
        shell.execute("admin", "s1", "who = kubelix");
        assertEquals("hello kubelix\n", shell.execute("admin", "s1", "test:hello $who").output());
        assertEquals("hello null\n", shell.execute("admin", "s2", "test:hello $who").output(), "another session");
        assertEquals("hello null\n", shell.execute("bob", "s1", "test:hello $who").output(), "another user's s1");
        assertEquals("hello null\n", shell.execute("admin", null, "test:hello $who").output(), "no session");
    }

    @Test
    void idleSessionsExpireAndTheLeastRecentlyUsedEndsBeyondTheBound() {
        shell.execute("admin", "a", "who = a");
        now.addAndGet(Duration.ofMinutes(10).toNanos());
        shell.execute("admin", "b", "who = b");
        shell.execute("admin", "a", "test:hello $who");
        shell.execute("admin", "c", "who = c");
        assertEquals(2, shell.sessions());
        assertEquals("hello a\n", shell.execute("admin", "a", "test:hello $who").output(), "a was used after b");
        assertEquals("hello null\n", shell.execute("admin", "b", "test:hello $who").output(), "b ended for c");

        now.addAndGet(Duration.ofMinutes(15).toNanos());
        assertEquals("hello null\n", shell.execute("admin", "a", "test:hello $who").output(), "a expired");
        assertEquals(1, shell.sessions(), "the other expired sessions ended too");
        assertFalse(shell.execute("admin", "a", "test:hello").failed());
    }

    /** Commands as a plugin registers them: a result to print, streams, a failure. */
    public static final class TestCommands {
        public String hello(String... who) {
            return "hello " + String.join(" ", who);
        }

        public void say() {
            System.out.println("to out");
            System.out.flush();
            System.err.println("to err");
        }

        public void fail() {
            System.out.println("written first");
            throw new IllegalStateException("the disk is on fire");
        }
    }
}
