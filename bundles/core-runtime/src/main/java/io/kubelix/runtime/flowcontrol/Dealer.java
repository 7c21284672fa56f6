package io.kubelix.runtime.flowcontrol;

/**
 * kube's shuffle-sharding Dealer: deals a hand of {@code handSize} distinct queues out of
 * {@code deckSize} from a flow's 64-bit hash, so two flows rarely share all of their queues.
 * The hash is read as an unsigned number in a mixed radix of deckSize, deckSize-1, ...
 */
final class Dealer {
    private final int deckSize;
    private final int handSize;

    Dealer(int deckSize, int handSize) {
        if (deckSize <= 0 || handSize <= 0 || handSize > deckSize) {
            throw new IllegalArgumentException("handSize " + handSize + " must be from 1 to deckSize " + deckSize);
        }
        this.deckSize = deckSize;
        this.handSize = handSize;
    }

    /** The queue indices dealt for {@code hashValue}, in deal order. */
    int[] deal(long hashValue) {
        int[] remainders = new int[handSize];
        long h = hashValue;
        for (int i = 0; i < handSize; i++) {
            long radix = deckSize - i;
            remainders[i] = (int) Long.remainderUnsigned(h, radix);
            h = Long.divideUnsigned(h, radix);
        }
        // Each remainder picks among the cards not yet dealt: step over the earlier ones.
        int[] hand = new int[handSize];
        for (int i = 0; i < handSize; i++) {
            int card = remainders[i];
            for (int j = i; j > 0; j--) {
                if (card >= remainders[j - 1]) {
                    card++;
                }
            }
            hand[i] = card;
        }
        return hand;
    }

    /** kube's hashFlowID: 64-bit FNV-1a of the FlowSchema's name, a 1 byte and the flow distinguisher. */
    static long flowHash(String flowSchema, String distinguisher) {
        long h = 0xcbf29ce484222325L;
        for (byte b : (flowSchema + "\u0001" + distinguisher).getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return h;
    }
}
