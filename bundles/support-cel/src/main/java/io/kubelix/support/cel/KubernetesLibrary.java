package io.kubelix.support.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.ListType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parts of kube's CEL libraries (k8s.io/apiserver/pkg/cel/library) that are functions of plain
 * values: regex {@code find} and {@code findAll}; lists {@code isSorted}, {@code sum}, {@code min},
 * {@code max}, {@code indexOf}, {@code lastIndexOf}. The libraries of kube's own value types are
 * {@link QuantityLibrary}, {@link NetworkLibrary}, {@link UrlLibrary} and {@link FormatLibrary}.
 */
final class KubernetesLibrary {
    private static final ListType LIST = ListType.create(SimpleType.DYN);
    private static final ListType STRINGS = ListType.create(SimpleType.STRING);

    private KubernetesLibrary() {
    }

    static List<CelFunctionDecl> declarations() {
        return List.of(
                CelFunctionDecl.newFunctionDeclaration("find",
                        CelOverloadDecl.newMemberOverload("string_find_string", SimpleType.STRING, SimpleType.STRING,
                                SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("findAll",
                        CelOverloadDecl.newMemberOverload("string_find_all_string", STRINGS, SimpleType.STRING,
                                SimpleType.STRING),
                        CelOverloadDecl.newMemberOverload("string_find_all_string_int", STRINGS, SimpleType.STRING,
                                SimpleType.STRING, SimpleType.INT)),
                CelFunctionDecl.newFunctionDeclaration("isSorted",
                        CelOverloadDecl.newMemberOverload("list_is_sorted", SimpleType.BOOL, LIST)),
                CelFunctionDecl.newFunctionDeclaration("sum",
                        CelOverloadDecl.newMemberOverload("list_sum", SimpleType.DYN, LIST)),
                CelFunctionDecl.newFunctionDeclaration("min",
                        CelOverloadDecl.newMemberOverload("list_min", SimpleType.DYN, LIST)),
                CelFunctionDecl.newFunctionDeclaration("max",
                        CelOverloadDecl.newMemberOverload("list_max", SimpleType.DYN, LIST)),
                CelFunctionDecl.newFunctionDeclaration("indexOf",
                        CelOverloadDecl.newMemberOverload("list_index_of", SimpleType.INT, LIST, SimpleType.DYN)),
                CelFunctionDecl.newFunctionDeclaration("lastIndexOf",
                        CelOverloadDecl.newMemberOverload("list_last_index_of", SimpleType.INT, LIST, SimpleType.DYN)));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_find_string", String.class, String.class, (s, re) -> {
                    Matcher m = Pattern.compile(re).matcher(s);
                    return m.find() ? m.group() : "";
                }),
                CelFunctionBinding.from("string_find_all_string", String.class, String.class, (s, re) -> findAll(s, re, -1)),
                CelFunctionBinding.from("string_find_all_string_int", List.of(String.class, String.class, Long.class),
                        args -> findAll((String) args[0], (String) args[1], (Long) args[2])),
                CelFunctionBinding.from("list_is_sorted", List.class, KubernetesLibrary::isSorted),
                CelFunctionBinding.from("list_sum", List.class, KubernetesLibrary::sum),
                CelFunctionBinding.from("list_min", List.class, l -> extreme(l, -1)),
                CelFunctionBinding.from("list_max", List.class, l -> extreme(l, 1)),
                CelFunctionBinding.from("list_index_of", List.class, Object.class, (l, v) -> (long) indexOf(l, v)),
                CelFunctionBinding.from("list_last_index_of", List.class, Object.class, (l, v) -> (long) lastIndexOf(l, v)));
    }

    private static List<String> findAll(String s, String re, long limit) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile(re).matcher(s);
        while ((limit < 0 || out.size() < limit) && m.find()) {
            out.add(m.group());
        }
        return out;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static boolean isSorted(List l) {
        for (int i = 1; i < l.size(); i++) {
            if (((Comparable) l.get(i - 1)).compareTo(l.get(i)) > 0) {
                return false;
            }
        }
        return true;
    }

    private static Object sum(List<?> l) {
        if (l.stream().allMatch(Long.class::isInstance)) {
            long total = 0;
            for (Object o : l) {
                total = Math.addExact(total, (Long) o);
            }
            return total;
        }
        return l.stream().mapToDouble(o -> ((Number) o).doubleValue()).sum();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object extreme(List l, int sign) {
        if (l.isEmpty()) {
            throw new IllegalArgumentException(sign < 0 ? "min called on empty list" : "max called on empty list");
        }
        Object best = l.get(0);
        for (Object o : l) {
            if (Integer.signum(((Comparable) o).compareTo(best)) == sign) {
                best = o;
            }
        }
        return best;
    }

    private static int indexOf(List<?> l, Object v) {
        for (int i = 0; i < l.size(); i++) {
            if (Objects.equals(l.get(i), v)) {
                return i;
            }
        }
        return -1;
    }

    private static int lastIndexOf(List<?> l, Object v) {
        for (int i = l.size() - 1; i >= 0; i--) {
            if (Objects.equals(l.get(i), v)) {
                return i;
            }
        }
        return -1;
    }
}
