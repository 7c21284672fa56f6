package io.kubelix.authn.token;

import io.kubelix.api.request.UserInfo;
import io.kubelix.authn.token.TokenCsv.MalformedTokenFileException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenCsvTest {

    @Test
    void parsesKubeApiserverTokenFiles() throws Exception {
        TokenTable table = TokenCsv.parse("""
                # the admin
                admin-token,admin,admin,"system:masters"

                alice-token,alice,alice-uid,"dev,ops, qa"\r
                bob-token,bob,bob-uid
                carol-token,carol,,"",extra-column
                """, "test");

        assertEquals(4, table.size());
        assertEquals(new UserInfo("admin", "admin", List.of("system:masters", "system:authenticated"), java.util.Map.of()),
                table.lookup("admin-token").orElseThrow());
        UserInfo alice = table.lookup("alice-token").orElseThrow();
        assertEquals("alice", alice.name());
        assertEquals("alice-uid", alice.uid());
        assertEquals(List.of("dev", "ops", "qa", "system:authenticated"), alice.groups());
        assertEquals(List.of("system:authenticated"), table.lookup("bob-token").orElseThrow().groups());
        assertEquals("", table.lookup("carol-token").orElseThrow().uid());
        assertEquals(Optional.empty(), table.lookup("unknown"));
        assertEquals(Optional.empty(), table.lookup("admin-token "));
    }

    @Test
    void quotedFieldsMayHoldQuotesAndCommas() throws Exception {
        TokenTable table = TokenCsv.parse("\"to,ken\",\"the \"\"user\"\"\",uid,\"system:authenticated,a\"", "test");

        UserInfo user = table.lookup("to,ken").orElseThrow();
        assertEquals("the \"user\"", user.name());
        assertEquals(List.of("system:authenticated", "a"), user.groups());
    }

    @Test
    void aMalformedLineFailsTheWholeFileWithItsLineNumber() {
        MalformedTokenFileException columns = assertThrows(MalformedTokenFileException.class,
                () -> TokenCsv.parse("good,user,uid\n\n# comment\nonly,two\n", "test"));
        assertEquals(4, columns.line());
        assertTrue(columns.getMessage().contains("3 columns"), columns.getMessage());

        assertEquals(2, assertThrows(MalformedTokenFileException.class,
                () -> TokenCsv.parse("a,b,c\nto\"ken,user,uid\n", "test")).line());
        assertEquals(1, assertThrows(MalformedTokenFileException.class,
                () -> TokenCsv.parse("token,user,uid,\"unclosed\n", "test")).line());
        assertEquals(1, assertThrows(MalformedTokenFileException.class,
                () -> TokenCsv.parse("token,user,uid,\"a\"b\n", "test")).line());
    }

    @Test
    void emptyTokensAreSkippedAndDuplicatesReplaced() throws Exception {
        TokenTable table = TokenCsv.parse(",nobody,uid\nsame,first,1\nsame,second,2\n", "test");

        assertEquals(1, table.size());
        assertEquals("second", table.lookup("same").orElseThrow().name());
        assertEquals(Optional.empty(), table.lookup(""));
    }

    @Test
    void anEmptyFileHasNoTokens() throws Exception {
        assertEquals(0, TokenCsv.parse("", "test").size());
        assertEquals(0, TokenCsv.parse("\n# nothing\n\n", "test").size());
    }
}
