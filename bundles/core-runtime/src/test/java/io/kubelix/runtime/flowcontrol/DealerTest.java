package io.kubelix.runtime.flowcontrol;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DealerTest {

    @Test
    void handsAreDistinctQueuesOfTheDeck() {
        Random random = new Random(7);
        for (int deck : new int[] {1, 2, 6, 64, 128}) {
            for (int hand = 1; hand <= Math.min(deck, 8); hand++) {
                Dealer dealer = new Dealer(deck, hand);
                for (int i = 0; i < 500; i++) {
                    int[] cards = dealer.deal(random.nextLong());
                    assertEquals(hand, cards.length);
                    Set<Integer> seen = new HashSet<>();
                    for (int c : cards) {
                        assertTrue(c >= 0 && c < deck, "card " + c + " of deck " + deck);
                        assertTrue(seen.add(c), "card dealt twice: " + Arrays.toString(cards));
                    }
                }
            }
        }
    }

    @Test
    void theHashIsReadInAMixedRadix() {
        // 7 = 3 + 4 * 1: remainders 3 (of 4) then 1 (of 3), which is below the first card.
        assertArrayEquals(new int[] {3, 1}, new Dealer(4, 2).deal(7));
        // 9 = 1 + 4 * 2: remainders 1 then 2, which steps over the card 1 dealt before.
        assertArrayEquals(new int[] {1, 3}, new Dealer(4, 2).deal(9));
        assertArrayEquals(new int[] {0, 1, 2}, new Dealer(3, 3).deal(0));
        // An unsigned hash: the top bit is a value, not a sign.
        int[] cards = new Dealer(128, 6).deal(-1L);
        assertEquals(6, Arrays.stream(cards).distinct().count());
    }

    @Test
    void flowsOfDifferentUsersGetDifferentHands() {
        Dealer dealer = new Dealer(128, 6);
        int[] alice = dealer.deal(Dealer.flowHash("service-accounts", "alice"));
        assertArrayEquals(alice, dealer.deal(Dealer.flowHash("service-accounts", "alice")), "a flow's hand is stable");
        assertNotEquals(Arrays.toString(alice), Arrays.toString(dealer.deal(Dealer.flowHash("service-accounts", "bob"))));
    }

    @Test
    void aHandLargerThanTheDeckIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Dealer(4, 5));
    }
}
