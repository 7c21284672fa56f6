package io.kubelix.runtime.shell;

/**
 * Runs shell command lines for {@link ShellEndpoint} (core-runtime internal). A separate service so
 * that the endpoint, which never touches Gogo's types, resolves and answers without Gogo.
 */
public interface CommandShell {

    /**
     * Runs {@code commandLine} in the session {@code sessionId} of {@code user}: variables and the
     * current directory carry over to the next line of the same user and id. A user's sessions are
     * theirs alone; another user with the same id gets another session.
     *
     * @param sessionId the client's session id, or null for a session that ends with the command
     * @return what the command wrote (standard out and error, in order) and its printed result
     */
    Result execute(String user, String sessionId, String commandLine);

    /** A command's text output, and whether it failed (its exception's message is then the last line). */
    record Result(String output, boolean failed) {
    }
}
