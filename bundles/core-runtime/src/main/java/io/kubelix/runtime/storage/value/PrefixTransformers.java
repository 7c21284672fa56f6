package io.kubelix.runtime.storage.value;

import io.kubelix.api.storage.ValueTransformer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * kube's value.NewPrefixTransformers: writes with the first transformer, its prefix before the
 * value; reads with the first whose prefix the value starts with (the prefix stripped), and says
 * the value is stale when that is not the first. A transformer that fails is not the last word: a
 * later one with the same prefix (the same provider with other keys, listed after the one being
 * rotated to) is tried too, and the empty prefix (identity) never fails a value it cannot read.
 */
public final class PrefixTransformers implements ValueTransformer {

    /** A transformer and the prefix its values carry in storage. */
    public record PrefixTransformer(byte[] prefix, ValueTransformer transformer) {
        public static PrefixTransformer of(String prefix, ValueTransformer transformer) {
            return new PrefixTransformer(prefix.getBytes(StandardCharsets.UTF_8), transformer);
        }
    }

    private final List<PrefixTransformer> transformers;
    private final String noMatch;

    /**
     * @param noMatch      the error when no prefix matches, such as {@code no matching prefix found}
     * @param transformers in order; the first writes
     */
    public PrefixTransformers(String noMatch, List<PrefixTransformer> transformers) {
        if (transformers.isEmpty()) {
            throw new IllegalArgumentException("no transformers");
        }
        this.transformers = List.copyOf(transformers);
        this.noMatch = noMatch;
    }

    @Override
    public Read transformFromStorage(byte[] stored, byte[] authenticatedData) {
        List<String> errors = new ArrayList<>();
        for (int i = 0; i < transformers.size(); i++) {
            PrefixTransformer t = transformers.get(i);
            byte[] prefix = t.prefix();
            if (!startsWith(stored, prefix)) {
                continue;
            }
            try {
                Read read = t.transformer().transformFromStorage(
                        Arrays.copyOfRange(stored, prefix.length, stored.length), authenticatedData);
                return new Read(read.data(), read.stale() || i != 0);
            } catch (RuntimeException e) {
                // identity refuses encrypted data; a later provider may read it
                if (prefix.length > 0) {
                    errors.add(e.getMessage());
                }
            }
        }
        if (errors.isEmpty()) {
            throw new IllegalStateException(noMatch);
        }
        // utilerrors.Reduce(NewAggregate(errs)): one message, or several in brackets
        throw new IllegalStateException(errors.size() == 1 ? errors.get(0) : "[" + String.join(", ", errors) + "]");
    }

    @Override
    public byte[] transformToStorage(byte[] data, byte[] authenticatedData) {
        PrefixTransformer first = transformers.get(0);
        byte[] out = first.transformer().transformToStorage(data, authenticatedData);
        byte[] prefixed = Arrays.copyOf(first.prefix(), first.prefix().length + out.length);
        System.arraycopy(out, 0, prefixed, first.prefix().length, out.length);
        return prefixed;
    }

    private static boolean startsWith(byte[] data, byte[] prefix) {
        return data.length >= prefix.length && Arrays.equals(data, 0, prefix.length, prefix, 0, prefix.length);
    }
}
