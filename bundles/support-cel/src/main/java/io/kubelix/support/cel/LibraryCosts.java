package io.kubelix.support.cel;

import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelKind;

import java.util.List;
import java.util.Set;

import static io.kubelix.support.cel.CostChecker.REGEX_STRING_LENGTH_COST_FACTOR;
import static io.kubelix.support.cel.CostChecker.STRING_TRAVERSAL_COST_FACTOR;

/**
 * The static costs of kube's CEL libraries (apiserver's {@code library.CostEstimator}) and of the
 * sets extension, by function name as kube prices them: list functions scale with the list's size
 * (and the length of its strings), string functions with the string's length, regexes with the
 * string's length times the pattern's, accessors cost one. Where kube only prices a member call
 * (its {@code target != nil} checks), a global call of the same function keeps CEL's default cost
 * of one, as in kube.
 */
final class LibraryCosts {
    /** A call's cost and, for a string, bytes, list or map result, its size. */
    record CallEstimate(CostEstimate cost, SizeEstimate resultSize) {
    }

    /** kube's cel.MaxNameFormatRegexSize: the longest regex behind a named format. */
    private static final int MAX_NAME_FORMAT_REGEX_SIZE = 128;
    private static final CostEstimate ONE = CostEstimate.fixed(1);
    private static final Set<String> NOMINAL = Set.of("serviceAccount", "path", "group", "resource", "subresource",
            "namespace", "name", "allowed", "reason", "error", "errored", "masked", "prefixLength", "family",
            "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast",
            "format.named", "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan",
            "compareTo", "add", "sub", "major", "minor", "patch", "getScheme", "getHostname", "getHost", "getPort",
            "getEscapedPath", "getQuery");
    /** Types whose equality kube prices at one unit. */
    private static final Set<String> UNIT_EQUALITY = Set.of("net.IP", "net.CIDR", "kubernetes.Quantity",
            "kubernetes.NamedFormat", "kubernetes.Semver", "kubernetes.authorization.Authorizer",
            "kubernetes.authorization.PathCheck", "kubernetes.authorization.GroupCheck",
            "kubernetes.authorization.ResourceCheck", "kubernetes.authorization.Decision");

    private LibraryCosts() {
    }

    /** The cost of one overload of a call (without its arguments'), or null when CEL's own pricing applies. */
    static CallEstimate estimate(CostChecker checker, String function, String overload,
                                 CostChecker.Node target, List<CostChecker.Node> args) {
        switch (overload) {
            case "list_sets_contains_list", "list_sets_intersects_list", "list_sets_equivalent_list":
                if (args.size() == 2) {
                    double factor = overload.equals("list_sets_equivalent_list") ? 2 : 1;
                    return cost(checker.sizeEstimate(args.get(0)).multiply(checker.sizeEstimate(args.get(1)))
                            .multiplyByCostFactor(factor).add(ONE));
                }
                return null;
            default:
                break;
        }
        if (NOMINAL.contains(function)) {
            return cost(ONE);
        }
        switch (function) {
            case "check":
                // two authorization checks fit under the per-call limit
                return cost(CostEstimate.fixed(350_000));
            case "fieldSelector", "labelSelector":
                if (args.size() == 1) {
                    SizeEstimate length = checker.sizeEstimate(args.get(0));
                    CostEstimate parse = length.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR);
                    CostEstimate requirements = length.multiplyByCostFactor(0.5).multiplyByCostFactor(10 + 40);
                    return cost(CostEstimate.fixed(10).add(parse).add(requirements));
                }
                return null;
            case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf":
                if (target != null) {
                    CostChecker.Node element = CostChecker.listElement(target);
                    if (element == null) {
                        // indexOf and lastIndexOf of a string
                        return cost(checker.sizeEstimate(target).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR));
                    }
                    CostEstimate perElement = ONE;
                    CelKind kind = element.type().kind();
                    if (kind == CelKind.STRING || kind == CelKind.BYTES) {
                        perElement = perElement.add(checker.sizeEstimate(element).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR));
                    }
                    return cost(checker.sizeEstimate(target).multiplyByCost(perElement));
                }
                return null;
            case "url", "jsonpatch.escapeKey":
                if (args.size() == 1) {
                    SizeEstimate sz = checker.sizeEstimate(args.get(0));
                    return new CallEstimate(sz.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR), sz);
                }
                return null;
            case "lowerAscii", "upperAscii", "substring", "trim":
                if (target != null) {
                    SizeEstimate sz = checker.sizeEstimate(target);
                    return new CallEstimate(sz.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR), sz);
                }
                return null;
            case "replace":
                return target != null && args.size() >= 2 ? replace(checker, target, args) : null;
            case "split":
                if (target != null) {
                    SizeEstimate sz = checker.sizeEstimate(target);
                    // at worst every character is an item, unless a literal limit says fewer
                    long max = sz.max();
                    if (args.size() > 1 && args.get(1).expr() != null
                            && args.get(1).expr().getKind() == CelExpr.ExprKind.Kind.CONSTANT
                            && args.get(1).expr().constant().getKind() == dev.cel.common.ast.CelConstant.Kind.INT64_VALUE) {
                        max = args.get(1).expr().constant().int64Value();
                    }
                    return new CallEstimate(sz.multiplyByCostFactor(2 * STRING_TRAVERSAL_COST_FACTOR), new SizeEstimate(0, max));
                }
                return null;
            case "join":
                return target != null ? join(checker, target, args) : null;
            case "find", "findAll":
                if (target != null && !args.isEmpty()) {
                    SizeEstimate sz = checker.sizeEstimate(target);
                    CostEstimate str = sz.add(SizeEstimate.fixed(1)).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR);
                    CostEstimate regex = checker.sizeEstimate(args.get(0)).multiplyByCostFactor(REGEX_STRING_LENGTH_COST_FACTOR);
                    return new CallEstimate(str.multiply(regex), new SizeEstimate(0, sz.max()));
                }
                return null;
            case "cidr", "isIP", "isCIDR", "quantity", "isQuantity", "semver", "isSemver":
                if (target != null && !args.isEmpty()) {
                    return cost(checker.sizeEstimate(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR));
                }
                return null;
            case "ip":
                if (target != null && !args.isEmpty() && !overload.equals("cidr_ip")) {
                    return cost(checker.sizeEstimate(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR));
                }
                return target != null ? cost(ONE) : null;
            case "ip.isCanonical":
                if (target != null && !args.isEmpty()) {
                    return cost(checker.sizeEstimate(args.get(0)).multiplyByCostFactor(2 * STRING_TRAVERSAL_COST_FACTOR));
                }
                return null;
            case "containsIP", "containsCIDR":
                if (target != null && !args.isEmpty()) {
                    // comparing the bytes of two IPv4 or IPv6 addresses
                    SizeEstimate ipBytes = new SizeEstimate(4, 16);
                    CostEstimate c = ipBytes.add(ipBytes).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR);
                    if (function.equals("containsCIDR")) {
                        c = c.add(ipBytes.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR)).add(ONE);
                    }
                    if (overload.equals("cidr_contains_ip_string") || overload.equals("cidr_contains_cidr_string")) {
                        c = c.add(checker.sizeEstimate(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR));
                    }
                    return cost(c);
                }
                return null;
            case "validate":
                if (target != null && !args.isEmpty()) {
                    return cost(checker.sizeEstimate(args.get(0)).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR)
                            .multiplyByCostFactor(MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR));
                }
                return null;
            case "_==_":
                if (args.size() == 2 && args.get(0).type().equals(args.get(1).type())) {
                    String type = args.get(0).type().name();
                    if (UNIT_EQUALITY.contains(type)) {
                        return cost(ONE);
                    }
                    if (type.equals("kubernetes.URL")) {
                        // kube compares as long as the right side's text
                        SizeEstimate size = args.get(1).computedSize() != null ? args.get(1).computedSize() : SizeEstimate.fixed(1);
                        return cost(new CostEstimate(1, size.max()).multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR));
                    }
                }
                return null;
            default:
                return null;
        }
    }

    /** The result is at most every smallest match replaced by the longest replacement. */
    private static CallEstimate replace(CostChecker checker, CostChecker.Node target, List<CostChecker.Node> args) {
        SizeEstimate sz = checker.sizeEstimate(target);
        SizeEstimate toReplace = checker.sizeEstimate(args.get(0));
        SizeEstimate replaceWith = checker.sizeEstimate(args.get(1));
        long countMax;
        long countMin;
        long retainedMax = 0;
        long retainedMin = 0;
        if (toReplace.min() == 0) {
            // an empty match surrounds every character
            countMax = CostEstimate.add(sz.max(), sz.max() < CostEstimate.UNBOUNDED ? 1 : 0);
            retainedMax = sz.max();
        } else if (replaceWith.max() <= toReplace.min()) {
            countMax = 0;
            retainedMax = sz.max();
        } else {
            countMax = (long) Math.ceil((double) sz.max() / toReplace.min());
        }
        if (toReplace.max() == 0) {
            countMin = CostEstimate.add(sz.min(), sz.min() < CostEstimate.UNBOUNDED ? 1 : 0);
            retainedMin = sz.min();
        } else if (toReplace.max() <= replaceWith.min()) {
            countMin = 0;
            retainedMin = sz.min();
        } else {
            countMin = (long) Math.ceil((double) sz.min() / toReplace.max());
        }
        SizeEstimate size = new SizeEstimate(countMin, countMax).multiply(replaceWith).add(new SizeEstimate(retainedMin, retainedMax));
        return new CallEstimate(sz.multiplyByCostFactor(2 * STRING_TRAVERSAL_COST_FACTOR), size);
    }

    /** The result is every item at its longest with a separator between each two. */
    private static CallEstimate join(CostChecker checker, CostChecker.Node target, List<CostChecker.Node> args) {
        SizeEstimate listSize = checker.sizeEstimate(target);
        SizeEstimate sz = new SizeEstimate(0, 0);
        CostChecker.Node element = CostChecker.listElement(target);
        if (element != null) {
            sz = listSize.multiply(checker.sizeEstimate(element));
        }
        if (!args.isEmpty()) {
            SizeEstimate separators = new SizeEstimate(Math.max(listSize.min() - 1, 0), Math.max(listSize.max() - 1, 0));
            sz = sz.add(checker.sizeEstimate(args.get(0)).multiply(separators));
        }
        return new CallEstimate(sz.multiplyByCostFactor(STRING_TRAVERSAL_COST_FACTOR), sz);
    }

    private static CallEstimate cost(CostEstimate cost) {
        return new CallEstimate(cost, null);
    }
}
