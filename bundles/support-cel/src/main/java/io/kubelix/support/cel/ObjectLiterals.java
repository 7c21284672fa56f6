package io.kubelix.support.cel;

import com.google.common.collect.ImmutableList;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;

import java.util.ArrayList;
import java.util.List;

/**
 * Makes a checked expression's {@link MutationTypes} literals ({@code Object.spec{replicas: 3}},
 * {@code JSONPatch{op: "add", ...}}) maps of their fields before it is planned.
 *
 * <p>cel-java's interpreter builds struct literals only as protobuf messages of known descriptors,
 * and kube's object types have no schema here (any {@code Object.<path>} with any field). The
 * checker has already checked the literals against their declared types; at run time an object
 * is what the admission plugin merges or patches with, a JSON map, so the literal becomes the map
 * of its fields. What a literal's type name says is checked here instead, as kube checks it when
 * it runs: a literal set directly as field {@code f} of an {@code Object.p} literal (or as an item
 * of a list there) must be of type {@code Object.p.f}.
 */
final class ObjectLiterals {
    private long nextId;

    private ObjectLiterals(long firstFreeId) {
        this.nextId = firstFreeId;
    }

    /**
     * The expression with its mutation literals as maps.
     *
     * @throws CelCompileException kube's type mismatch, when a nested literal's type name is not its field path
     */
    static CelAbstractSyntaxTree rewrite(CelAbstractSyntaxTree ast) throws CelCompileException {
        ObjectLiterals literals = new ObjectLiterals(maxId(ast.getExpr()) + 1);
        CelExpr root = literals.rewrite(ast.getExpr(), null);
        return CelAbstractSyntaxTree.newCheckedAst(root, ast.getSource(), ast.getReferenceMap(), ast.getTypeMap());
    }

    /** @param expected the type name the field path asks of a literal here, or null */
    private CelExpr rewrite(CelExpr e, String expected) throws CelCompileException {
        switch (e.exprKind().getKind()) {
            case SELECT:
                return e.toBuilder().setSelect(e.select().toBuilder().setOperand(rewrite(e.select().operand(), null))
                        .build()).build();
            case CALL: {
                var call = e.call().toBuilder();
                if (e.call().target().isPresent()) {
                    call.setTarget(rewrite(e.call().target().get(), null));
                }
                List<CelExpr> args = new ArrayList<>();
                for (CelExpr a : e.call().args()) {
                    args.add(rewrite(a, null));
                }
                call.clearArgs().addArgs(args);
                return e.toBuilder().setCall(call.build()).build();
            }
            case LIST: {
                var list = e.list().toBuilder();
                for (int i = 0; i < e.list().elements().size(); i++) {
                    list.setElement(i, rewrite(e.list().elements().get(i), expected));
                }
                return e.toBuilder().setList(list.build()).build();
            }
            case MAP: {
                var map = e.map().toBuilder();
                for (int i = 0; i < e.map().entries().size(); i++) {
                    CelExpr.CelMap.Entry entry = e.map().entries().get(i);
                    map.setEntry(i, entry.toBuilder().setKey(rewrite(entry.key(), null))
                            .setValue(rewrite(entry.value(), null)).build());
                }
                return e.toBuilder().setMap(map.build()).build();
            }
            case STRUCT:
                return struct(e, expected);
            case COMPREHENSION: {
                var c = e.comprehension();
                return e.toBuilder().setComprehension(c.toBuilder()
                        .setIterRange(rewrite(c.iterRange(), null))
                        .setAccuInit(rewrite(c.accuInit(), null))
                        .setLoopCondition(rewrite(c.loopCondition(), null))
                        .setLoopStep(rewrite(c.loopStep(), null))
                        .setResult(rewrite(c.result(), null)).build()).build();
            }
            default:
                return e;
        }
    }

    private CelExpr struct(CelExpr e, String expected) throws CelCompileException {
        String name = e.struct().messageName();
        if (!MutationTypes.isMutationType(name)) {
            return e;
        }
        if (expected != null && MutationTypes.isObjectType(name) && !name.equals(expected)) {
            throw new CelCompileException("type mismatch: unexpected type name \"" + name + "\", expected \""
                    + expected + "\", which matches field name path from root Object type", null);
        }
        boolean object = MutationTypes.isObjectType(name);
        ImmutableList.Builder<CelExpr.CelMap.Entry> entries = ImmutableList.builder();
        for (CelExpr.CelStruct.Entry f : e.struct().entries()) {
            CelExpr key = CelExpr.ofConstant(nextId++, CelConstant.ofValue(f.fieldKey()));
            CelExpr value = rewrite(f.value(), object ? name + "." + f.fieldKey() : null);
            entries.add(CelExpr.ofMapEntry(f.id(), key, value, f.optionalEntry()));
        }
        return CelExpr.ofMap(e.id(), entries.build());
    }

    /** The fields each object type's literals in {@code e} set, by type name. */
    static java.util.Map<String, java.util.Set<String>> fieldsByType(CelExpr e) {
        java.util.Map<String, java.util.Set<String>> fields = new java.util.HashMap<>();
        collect(e, fields);
        return fields;
    }

    private static void collect(CelExpr e, java.util.Map<String, java.util.Set<String>> fields) {
        switch (e.exprKind().getKind()) {
            case SELECT -> collect(e.select().operand(), fields);
            case CALL -> {
                e.call().target().ifPresent(t -> collect(t, fields));
                e.call().args().forEach(a -> collect(a, fields));
            }
            case LIST -> e.list().elements().forEach(a -> collect(a, fields));
            case MAP -> e.map().entries().forEach(en -> {
                collect(en.key(), fields);
                collect(en.value(), fields);
            });
            case STRUCT -> {
                java.util.Set<String> names = fields.computeIfAbsent(e.struct().messageName(), k -> new java.util.HashSet<>());
                for (CelExpr.CelStruct.Entry en : e.struct().entries()) {
                    names.add(en.fieldKey());
                    collect(en.value(), fields);
                }
            }
            case COMPREHENSION -> {
                var c = e.comprehension();
                List.of(c.iterRange(), c.accuInit(), c.loopCondition(), c.loopStep(), c.result())
                        .forEach(a -> collect(a, fields));
            }
            default -> {
            }
        }
    }

    private static long maxId(CelExpr e) {
        long max = e.id();
        switch (e.exprKind().getKind()) {
            case SELECT -> max = Math.max(max, maxId(e.select().operand()));
            case CALL -> {
                if (e.call().target().isPresent()) {
                    max = Math.max(max, maxId(e.call().target().get()));
                }
                for (CelExpr a : e.call().args()) {
                    max = Math.max(max, maxId(a));
                }
            }
            case LIST -> {
                for (CelExpr a : e.list().elements()) {
                    max = Math.max(max, maxId(a));
                }
            }
            case MAP -> {
                for (CelExpr.CelMap.Entry en : e.map().entries()) {
                    max = Math.max(max, Math.max(en.id(), Math.max(maxId(en.key()), maxId(en.value()))));
                }
            }
            case STRUCT -> {
                for (CelExpr.CelStruct.Entry en : e.struct().entries()) {
                    max = Math.max(max, Math.max(en.id(), maxId(en.value())));
                }
            }
            case COMPREHENSION -> {
                var c = e.comprehension();
                for (CelExpr a : List.of(c.iterRange(), c.accuInit(), c.loopCondition(), c.loopStep(), c.result())) {
                    max = Math.max(max, maxId(a));
                }
            }
            default -> {
            }
        }
        return max;
    }
}
