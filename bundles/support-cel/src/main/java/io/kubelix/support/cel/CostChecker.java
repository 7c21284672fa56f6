package io.kubelix.support.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelReference;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The static cost of a checked expression, as cel-go's {@code checker.Cost} computes it for kube:
 * one unit per identifier and field selection, a call's cost from its overload (string functions
 * scale with the string's maximum length, {@code in} with the list's), and a comprehension's loop
 * body multiplied by the maximum size of the range it iterates, so nested loops multiply. Sizes come
 * from literals, from what earlier sub-expressions computed and from the {@link SizeEstimator}
 * (kube's schema limits); kube's own functions are priced by {@link LibraryCosts}. As kube, a
 * presence test ({@code has()}) adds nothing.
 */
final class CostChecker {
    static final double STRING_TRAVERSAL_COST_FACTOR = 0.1;
    static final double REGEX_STRING_LENGTH_COST_FACTOR = 0.25;
    private static final CostEstimate SELECT_AND_IDENT_COST = CostEstimate.fixed(1);
    private static final CostEstimate LIST_CREATE_BASE_COST = CostEstimate.fixed(10);
    private static final CostEstimate MAP_CREATE_BASE_COST = CostEstimate.fixed(30);
    private static final CostEstimate STRUCT_CREATE_BASE_COST = CostEstimate.fixed(40);

    /** What an expression knows about the items (or entries) of the list (or map) it builds. */
    private record EntrySize(CelKind container, SizeEstimate key, SizeEstimate value) {
        EntrySize union(EntrySize o) {
            return o == null ? null : new EntrySize(container, key.union(o.key), value.union(o.value));
        }
    }

    private record LocalVar(List<String> path, SizeEstimate size, EntrySize entrySize) {
    }

    /** A sub-expression as function estimates see it (cel-go's {@code checker.AstNode}). */
    record Node(List<String> path, CelType type, CelExpr expr, SizeEstimate computedSize) {
    }

    private final CelAbstractSyntaxTree ast;
    private final SizeEstimator sizes;
    private final Map<Long, List<String>> paths = new HashMap<>();
    private final Map<String, Deque<LocalVar>> locals = new HashMap<>();
    private final Map<Long, SizeEstimate> computedSizes = new HashMap<>();
    private final Map<Long, EntrySize> entrySizes = new HashMap<>();

    private CostChecker(CelAbstractSyntaxTree ast, SizeEstimator sizes) {
        this.ast = ast;
        this.sizes = sizes;
    }

    static CostEstimate estimate(CelAbstractSyntaxTree ast, SizeEstimator sizes) {
        return new CostChecker(ast, sizes).cost(ast.getExpr());
    }

    private CostEstimate cost(CelExpr e) {
        return switch (e.getKind()) {
            case CONSTANT -> CostEstimate.ZERO;
            case IDENT -> costIdent(e);
            case SELECT -> costSelect(e);
            case CALL -> costCall(e);
            case LIST -> costCreateList(e);
            case MAP -> costCreateMap(e);
            case STRUCT -> costCreateStruct(e);
            case COMPREHENSION -> isBind(e) ? costBind(e) : costComprehension(e);
            default -> CostEstimate.ZERO;
        };
    }

    private CostEstimate costIdent(CelExpr e) {
        LocalVar v = peek(e.ident().name());
        paths.put(e.id(), v != null ? v.path() : List.of(e.ident().name()));
        return SELECT_AND_IDENT_COST;
    }

    private CostEstimate costSelect(CelExpr e) {
        CelExpr.CelSelect sel = e.select();
        if (sel.testOnly()) {
            // kube's PresenceTestHasCost(false): has() costs only its operand
            return cost(sel.operand());
        }
        CostEstimate sum = cost(sel.operand());
        CelKind kind = type(sel.operand()).kind();
        if (kind == CelKind.MAP || kind == CelKind.STRUCT || kind == CelKind.TYPE_PARAM) {
            sum = sum.add(SELECT_AND_IDENT_COST);
        }
        paths.put(e.id(), append(path(sel.operand()), sel.field()));
        return sum;
    }

    private CostEstimate costCall(CelExpr e) {
        CelExpr.CelCall call = e.call();
        if (call.function().equals("dyn") && call.args().size() == 1) {
            CelExpr arg = call.args().get(0);
            CostEstimate argCost = cost(arg);
            copySizeEstimates(e, arg);
            return CostEstimate.fixed(1).add(argCost);
        }
        List<CelExpr> args = call.args();
        List<Node> argNodes = new ArrayList<>(args.size());
        List<CostEstimate> argCosts = new ArrayList<>(args.size());
        for (CelExpr arg : args) {
            argCosts.add(cost(arg));
            argNodes.add(node(arg));
        }
        List<String> overloads = ast.getReference(e.id()).map(CelReference::overloadIds).orElse(null);
        if (overloads == null || overloads.isEmpty()) {
            return CostEstimate.ZERO;
        }
        CostEstimate sum = CostEstimate.ZERO;
        Node target = null;
        if (call.target().isPresent()) {
            sum = sum.add(cost(call.target().get()));
            target = node(call.target().get());
        }
        CostEstimate fnCost = new CostEstimate(CostEstimate.UNBOUNDED, 0);
        SizeEstimate resultSize = null;
        for (String overload : overloads) {
            LibraryCosts.CallEstimate est = functionCost(e, call.function(), overload, target, argNodes, argCosts);
            fnCost = fnCost.union(est.cost());
            if (est.resultSize() != null) {
                resultSize = resultSize == null ? est.resultSize() : resultSize.union(est.resultSize());
            }
            if ((overload.equals("index_list") || overload.equals("index_map")) && !args.isEmpty()) {
                EntrySize entry = entrySize(args.get(0));
                resultSize = entry == null ? null : entry.value();
                paths.put(e.id(), append(path(args.get(0)), overload.equals("index_list") ? "@items" : "@values"));
            }
            if (resultSize == null) {
                resultSize = computeSize(e);
            }
        }
        setSize(e, resultSize);
        return sum.add(fnCost);
    }

    private CostEstimate costCreateList(CelExpr e) {
        List<CelExpr> elements = e.list().elements();
        CostEstimate sum = CostEstimate.ZERO;
        SizeEstimate itemSize = new SizeEstimate(elements.isEmpty() ? 0 : CostEstimate.UNBOUNDED, 0);
        for (CelExpr element : elements) {
            sum = sum.add(cost(element));
            itemSize = itemSize.union(sizeOrUnknown(element));
        }
        entrySizes.put(e.id(), new EntrySize(CelKind.LIST, SizeEstimate.fixed(1), itemSize));
        return sum.add(LIST_CREATE_BASE_COST);
    }

    private CostEstimate costCreateMap(CelExpr e) {
        List<CelExpr.CelMap.Entry> entries = e.map().entries();
        CostEstimate sum = CostEstimate.ZERO;
        long min = entries.isEmpty() ? 0 : CostEstimate.UNBOUNDED;
        SizeEstimate keySize = new SizeEstimate(min, 0);
        SizeEstimate valueSize = new SizeEstimate(min, 0);
        for (CelExpr.CelMap.Entry entry : entries) {
            sum = sum.add(cost(entry.key())).add(cost(entry.value()));
            keySize = keySize.union(sizeOrUnknown(entry.key()));
            valueSize = valueSize.union(sizeOrUnknown(entry.value()));
        }
        entrySizes.put(e.id(), new EntrySize(CelKind.MAP, keySize, valueSize));
        return sum.add(MAP_CREATE_BASE_COST);
    }

    private CostEstimate costCreateStruct(CelExpr e) {
        CostEstimate sum = CostEstimate.ZERO;
        for (CelExpr.CelStruct.Entry field : e.struct().entries()) {
            sum = sum.add(cost(field.value()));
        }
        return sum.add(STRUCT_CREATE_BASE_COST);
    }

    private CostEstimate costComprehension(CelExpr e) {
        CelExpr.CelComprehension comp = e.comprehension();
        CostEstimate sum = cost(comp.iterRange()).add(cost(comp.accuInit()));
        pushLocal(comp.accuVar(), comp.accuInit());
        boolean twoVars = !comp.iterVar2().isEmpty();
        if (twoVars) {
            pushIter(comp.iterVar(), comp.iterRange(), true);
            pushIter(comp.iterVar2(), comp.iterRange(), false);
        } else {
            pushIterSingle(comp.iterVar(), comp.iterRange());
        }
        CostEstimate loopCost = cost(comp.loopCondition());
        CostEstimate stepCost = cost(comp.loopStep());
        pop(comp.iterVar());
        if (twoVars) {
            pop(comp.iterVar2());
        }
        sum = sum.add(cost(comp.result()));
        pop(comp.accuVar());
        // the loop runs once for each item of the range, at most as many times as it can have
        SizeEstimate rangeCount = sizeOrUnknown(comp.iterRange());
        sum = sum.add(rangeCount.multiplyByCost(stepCost.add(loopCost)));
        switch (comp.accuInit().getKind()) {
            case CONSTANT -> setSize(e, computeSize(comp.accuInit()));
            case LIST, MAP -> {
                setSize(e, rangeCount);
                EntrySize step = entrySize(comp.loopStep());
                if (step != null) {
                    entrySizes.put(e.id(), step);
                }
            }
            default -> {
            }
        }
        return sum;
    }

    /** cel.bind(): a comprehension over an empty list whose result sees the bound variable. */
    private boolean isBind(CelExpr e) {
        CelExpr.CelComprehension comp = e.comprehension();
        return comp.iterRange().getKind() == CelExpr.ExprKind.Kind.LIST && comp.iterRange().list().elements().isEmpty()
                && comp.loopCondition().getKind() == CelExpr.ExprKind.Kind.CONSTANT
                && comp.loopCondition().constant().getKind() == CelConstant.Kind.BOOLEAN_VALUE
                && !comp.loopCondition().constant().booleanValue()
                && !isAccumulator(comp.accuVar());
    }

    private CostEstimate costBind(CelExpr e) {
        CelExpr.CelComprehension comp = e.comprehension();
        CostEstimate sum = cost(comp.iterRange()).add(cost(comp.accuInit()));
        pushLocal(comp.accuVar(), comp.accuInit());
        sum = sum.add(cost(comp.result()));
        pop(comp.accuVar());
        copySizeEstimates(e, comp.result());
        return sum;
    }

    /** cel-go's functionCost: kube's library first, then the standard overloads CEL prices by size. */
    private LibraryCosts.CallEstimate functionCost(CelExpr e, String function, String overload, Node target,
                                                    List<Node> args, List<CostEstimate> argCosts) {
        CostEstimate argSum = CostEstimate.ZERO;
        for (CostEstimate c : argCosts) {
            argSum = argSum.add(c);
        }
        LibraryCosts.CallEstimate library = LibraryCosts.estimate(this, function, overload, target, args);
        if (library != null) {
            return new LibraryCosts.CallEstimate(library.cost().add(argSum), library.resultSize());
        }
        switch (overload) {
            case "string_format":
                if (target != null) {
                    return cost(sizeOrUnknown(target).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR).add(argSum));
                }
                break;
            case "string_to_bytes":
                if (args.size() == 1) {
                    SizeEstimate sz = sizeOrUnknown(args.get(0));
                    return new LibraryCosts.CallEstimate(sz.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR).add(argSum),
                            new SizeEstimate(sz.min(), CostEstimate.multiply(sz.max(), 4)));
                }
                break;
            case "bytes_to_string":
                if (args.size() == 1) {
                    SizeEstimate sz = sizeOrUnknown(args.get(0));
                    return new LibraryCosts.CallEstimate(sz.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR).add(argSum),
                            new SizeEstimate(sz.min() / 4, sz.max()));
                }
                break;
            case "strings_quote":
                if (args.size() == 1) {
                    SizeEstimate sz = sizeOrUnknown(args.get(0));
                    return new LibraryCosts.CallEstimate(sz.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR).add(argSum),
                            new SizeEstimate(CostEstimate.add(sz.min(), 2), CostEstimate.add(CostEstimate.multiply(sz.max(), 2), 2)));
                }
                break;
            case "starts_with_string", "ends_with_string":
                if (args.size() == 1) {
                    return cost(sizeOrUnknown(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR).add(argSum));
                }
                break;
            case "in_list":
                if (args.size() == 2) {
                    return cost(sizeOrUnknown(args.get(1)).multiplyByCostFactor(1).add(argSum));
                }
                break;
            case "matches_string":
                if (target != null && args.size() == 1) {
                    // one more than the string's length, so that an empty string against a costly regex costs
                    CostEstimate str = sizeOrUnknown(target).add(SizeEstimate.fixed(1)).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR);
                    CostEstimate regex = sizeOrUnknown(args.get(0)).multiplyByCostFactor(REGEX_STRING_LENGTH_COST_FACTOR);
                    return cost(str.multiply(regex).add(argSum));
                }
                break;
            case "contains_string":
                if (target != null && args.size() == 1) {
                    CostEstimate str = sizeOrUnknown(target).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR);
                    CostEstimate sub = sizeOrUnknown(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR);
                    return cost(str.multiply(sub).add(argSum));
                }
                break;
            case "logical_or", "logical_and": {
                // the right side may not run
                CostEstimate lhs = argCosts.get(0);
                return cost(new CostEstimate(lhs.min(), lhs.add(argCosts.get(1)).max()));
            }
            case "conditional": {
                SizeEstimate size = sizeOrUnknown(args.get(1)).union(sizeOrUnknown(args.get(2)));
                EntrySize ifTrue = entrySize(args.get(1).expr());
                EntrySize entries = ifTrue == null ? null : ifTrue.union(entrySize(args.get(2).expr()));
                if (entries != null) {
                    entrySizes.put(e.id(), entries);
                }
                return new LibraryCosts.CallEstimate(argCosts.get(0).add(argCosts.get(1).union(argCosts.get(2))), size);
            }
            case "add_string", "add_bytes", "add_list":
                if (args.size() == 2) {
                    SizeEstimate resultSize = sizeOrUnknown(args.get(0)).add(sizeOrUnknown(args.get(1)));
                    EntrySize lhs = entrySize(args.get(0).expr());
                    EntrySize entries = lhs == null ? null : lhs.union(entrySize(args.get(1).expr()));
                    if (entries != null) {
                        entrySizes.put(e.id(), entries);
                    }
                    if (overload.equals("add_list")) {
                        // concatenating lists costs nothing more; their size is what matters
                        return new LibraryCosts.CallEstimate(CostEstimate.fixed(1).add(argSum), resultSize);
                    }
                    return new LibraryCosts.CallEstimate(resultSize.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR).add(argSum), resultSize);
                }
                break;
            case "less_string", "greater_string", "less_equals_string", "greater_equals_string",
                 "less_bytes", "greater_bytes", "less_equals_bytes", "greater_equals_bytes",
                 "equals", "not_equals": {
                // comparing stops at the end of the shorter value
                long smallestMax = Math.min(sizeOrUnknown(args.get(0)).max(), sizeOrUnknown(args.get(1)).max());
                return cost(new CostEstimate(smallestMax > 0 ? 1 : 0, smallestMax)
                        .multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR).add(argSum));
            }
            default:
                break;
        }
        return cost(CostEstimate.fixed(1).add(argSum));
    }

    private static LibraryCosts.CallEstimate cost(CostEstimate cost) {
        return new LibraryCosts.CallEstimate(cost, null);
    }

    /** The size of a node: what its expression computed, else what the estimator knows, else unbounded. */
    SizeEstimate sizeOrUnknown(Node node) {
        return node.computedSize() != null ? node.computedSize() : SizeEstimate.UNKNOWN;
    }

    /** kube's library sizes: computed, else from the estimator by path, else unbounded. */
    SizeEstimate sizeEstimate(Node node) {
        if (node.computedSize() != null) {
            return node.computedSize();
        }
        SizeEstimate size = estimatorSize(node.path());
        return size != null ? size : SizeEstimate.UNKNOWN;
    }

    /** A node for the items of a list node, with a path when the list has one (kube's listElementNode). */
    static Node listElement(Node list) {
        if (list.type().parameters().isEmpty()) {
            return null;
        }
        List<String> path = list.path() == null || list.path().isEmpty() ? List.of() : append(list.path(), "@items");
        return new Node(path, list.type().parameters().get(0), null, null);
    }

    private SizeEstimate sizeOrUnknown(CelExpr e) {
        SizeEstimate size = computeSize(e);
        return size != null ? size : SizeEstimate.UNKNOWN;
    }

    private SizeEstimate computeSize(CelExpr e) {
        SizeEstimate computed = computedSizes.get(e.id());
        if (computed != null) {
            return computed;
        }
        SizeEstimate literal = literalSize(e);
        if (literal != null) {
            return literal;
        }
        SizeEstimate estimated = estimatorSize(path(e));
        if (estimated != null) {
            computedSizes.put(e.id(), estimated);
            return estimated;
        }
        if (isScalar(type(e))) {
            return SizeEstimate.fixed(1);
        }
        if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
            LocalVar v = peek(e.ident().name());
            if (v != null && v.size() != null) {
                return v.size();
            }
        }
        return null;
    }

    private SizeEstimate estimatorSize(List<String> path) {
        return path == null || path.isEmpty() ? null : sizes.estimateSize(path);
    }

    private static SizeEstimate literalSize(CelExpr e) {
        switch (e.getKind()) {
            case CONSTANT -> {
                CelConstant c = e.constant();
                return switch (c.getKind()) {
                    case STRING_VALUE -> SizeEstimate.fixed(c.stringValue().codePointCount(0, c.stringValue().length()));
                    case BYTES_VALUE -> SizeEstimate.fixed(c.bytesValue().size());
                    case BOOLEAN_VALUE, DOUBLE_VALUE, DURATION_VALUE, INT64_VALUE, TIMESTAMP_VALUE, UINT64_VALUE,
                         NULL_VALUE -> SizeEstimate.fixed(1);
                    default -> null;
                };
            }
            case LIST -> {
                return SizeEstimate.fixed(e.list().elements().size());
            }
            case MAP -> {
                return SizeEstimate.fixed(e.map().entries().size());
            }
            default -> {
                return null;
            }
        }
    }

    private static boolean isScalar(CelType t) {
        return switch (t.kind()) {
            case BOOL, DOUBLE, DURATION, INT, TIMESTAMP, UINT -> true;
            case OPAQUE -> t.name().equals("optional_type") && !t.parameters().isEmpty() && isScalar(t.parameters().get(0));
            default -> false;
        };
    }

    private Node node(CelExpr e) {
        List<String> path = path(e);
        if (!path.isEmpty() && isAccumulator(path.get(0))) {
            path = List.of();
        }
        return new Node(path, type(e), e, computeSize(e));
    }

    private CelType type(CelExpr e) {
        return ast.getType(e.id()).orElse(SimpleType.DYN);
    }

    private List<String> path(CelExpr e) {
        if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
            LocalVar v = peek(e.ident().name());
            if (v != null) {
                return v.path();
            }
        }
        return paths.getOrDefault(e.id(), List.of());
    }

    private void setSize(CelExpr e, SizeEstimate size) {
        if (size != null) {
            computedSizes.put(e.id(), size);
        }
    }

    private void copySizeEstimates(CelExpr dst, CelExpr src) {
        setSize(dst, computeSize(src));
        EntrySize entries = entrySize(src);
        if (entries != null) {
            entrySizes.put(dst.id(), entries);
        }
    }

    private EntrySize entrySize(CelExpr e) {
        EntrySize size = entrySizes.get(e.id());
        if (size != null) {
            return size;
        }
        if (e.getKind() == CelExpr.ExprKind.Kind.IDENT) {
            LocalVar v = peek(e.ident().name());
            if (v != null) {
                return v.entrySize();
            }
        }
        return null;
    }

    private void pushLocal(String name, CelExpr e) {
        push(name, new LocalVar(path(e), computeSize(e), entrySize(e)));
    }

    /** The single variable of a comprehension: a list's items, a map's keys. */
    private void pushIterSingle(String name, CelExpr range) {
        EntrySize entries = entrySize(range);
        CelKind container = entries != null ? entries.container() : type(range).kind();
        boolean list = container == CelKind.LIST;
        SizeEstimate size = entries == null ? null : list ? entries.value() : entries.key();
        push(name, new LocalVar(append(path(range), list ? "@items" : "@keys"), size, null));
    }

    /** A variable of a two-variable comprehension: the index or key when {@code key}, else the item or value. */
    private void pushIter(String name, CelExpr range, boolean key) {
        EntrySize entries = entrySize(range);
        CelKind container = entries != null ? entries.container() : type(range).kind();
        boolean list = container == CelKind.LIST;
        SizeEstimate size = entries == null ? null : key ? entries.key() : entries.value();
        String sub = key ? (list ? "@indices" : "@keys") : (list ? "@items" : "@values");
        push(name, new LocalVar(append(path(range), sub), size, null));
    }

    private void push(String name, LocalVar v) {
        locals.computeIfAbsent(name, n -> new ArrayDeque<>()).push(v);
    }

    private void pop(String name) {
        Deque<LocalVar> stack = locals.get(name);
        if (stack != null && !stack.isEmpty()) {
            stack.pop();
        }
    }

    private LocalVar peek(String name) {
        Deque<LocalVar> stack = locals.get(name);
        return stack == null ? null : stack.peek();
    }

    private static boolean isAccumulator(String name) {
        return name.equals("__result__") || name.equals("@result");
    }

    private static List<String> append(List<String> path, String element) {
        List<String> longer = new ArrayList<>(path.size() + 1);
        longer.addAll(path);
        longer.add(element);
        return List.copyOf(longer);
    }
}
