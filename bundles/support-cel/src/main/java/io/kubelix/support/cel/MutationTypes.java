package io.kubelix.support.cel;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The types kube's mutating admission policies build objects with (k8s.io/apiserver/pkg/cel/mutation):
 * {@code Object} and every {@code Object.<field path>} ({@code Object.spec.template}), structs
 * whose fields may be any field of any type, as kube's dynamic type resolver declares them (the
 * schema of the mutated kind is not consulted, so a misspelt field is found when the result is
 * merged, not when the expression compiles); and {@code JSONPatch}, with {@code op}, {@code path}
 * and {@code from} strings and a {@code value} of any type. Other names go to {@code next}.
 *
 * <p>cel-java's struct types list their fields, so an object type has the fields the literals of
 * the expressions compiled so far gave it ({@link #declareFields}, called between parsing and
 * checking); all are {@code dyn}, so one expression's fields do not change what another's means.
 */
final class MutationTypes implements CelTypeProvider {
    static final String OBJECT = "Object";
    static final String JSON_PATCH = "JSONPatch";
    private static final StructType JSON_PATCH_TYPE = StructType.create(JSON_PATCH,
            ImmutableSet.of("op", "path", "from", "value"),
            f -> Optional.ofNullable(Map.<String, CelType>of("op", SimpleType.STRING, "path", SimpleType.STRING,
                    "from", SimpleType.STRING, "value", SimpleType.DYN).get(f)));

    private final CelTypeProvider next;
    /** Object types by name, made as expressions name them. */
    private final Map<String, StructType> objects = new ConcurrentHashMap<>();

    MutationTypes(CelTypeProvider next) {
        this.next = next;
    }

    /** Whether a struct literal of this type is one of these types (an object or a patch operation). */
    static boolean isMutationType(String name) {
        return isObjectType(name) || JSON_PATCH.equals(name);
    }

    static boolean isObjectType(String name) {
        return OBJECT.equals(name) || name.startsWith(OBJECT + ".");
    }

    /** Adds fields to an object type before an expression whose literals set them is checked. */
    void declareFields(String typeName, java.util.Set<String> fields) {
        if (!isObjectType(typeName)) {
            return;
        }
        objects.compute(typeName, (n, old) -> {
            if (old != null && old.fieldNames().containsAll(fields)) {
                return old;
            }
            ImmutableSet<String> names = ImmutableSet.<String>builder()
                    .addAll(old == null ? ImmutableSet.of() : old.fieldNames()).addAll(fields).build();
            return StructType.create(n, names, f -> Optional.of(SimpleType.DYN));
        });
    }

    @Override
    public ImmutableCollection<CelType> types() {
        ImmutableList.Builder<CelType> all = ImmutableList.builder();
        all.add(JSON_PATCH_TYPE).addAll(objects.values());
        if (next != null) {
            all.addAll(next.types());
        }
        return all.build();
    }

    @Override
    public Optional<CelType> findType(String typeName) {
        if (JSON_PATCH.equals(typeName)) {
            return Optional.of(JSON_PATCH_TYPE);
        }
        if (isObjectType(typeName)) {
            return Optional.of(objects.computeIfAbsent(typeName,
                    n -> StructType.create(n, ImmutableSet.of(), f -> Optional.of(SimpleType.DYN))));
        }
        return next == null ? Optional.empty() : next.findType(typeName);
    }
}
