package io.kubelix.support.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.runtime.CelFunctionBinding;
import io.kubelix.support.quantity.InvalidQuantityException;
import io.kubelix.support.quantity.Quantity;

import java.math.BigDecimal;
import java.util.List;

/**
 * kube's quantity library (k8s.io/apiserver/pkg/cel/library/quantity.go): {@code quantity(string)}
 * and {@code isQuantity(string)}, and on a quantity {@code sign()}, {@code isGreaterThan},
 * {@code isLessThan}, {@code compareTo}, {@code add} and {@code sub} (of a quantity or an int),
 * {@code isInteger()}, {@code asInteger()} and {@code asApproximateFloat()}.
 */
final class QuantityLibrary {
    static final OpaqueType QUANTITY = OpaqueType.create("kubernetes.Quantity");
    private static final BigDecimal MIN_LONG = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal MAX_LONG = BigDecimal.valueOf(Long.MAX_VALUE);

    private QuantityLibrary() {
    }

    static List<CelFunctionDecl> declarations() {
        return List.of(
                CelFunctionDecl.newFunctionDeclaration("quantity",
                        CelOverloadDecl.newGlobalOverload("string_to_quantity", QUANTITY, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("isQuantity",
                        CelOverloadDecl.newGlobalOverload("is_quantity_string", SimpleType.BOOL, SimpleType.STRING)),
                CelFunctionDecl.newFunctionDeclaration("sign",
                        CelOverloadDecl.newMemberOverload("quantity_sign", SimpleType.INT, QUANTITY)),
                CelFunctionDecl.newFunctionDeclaration("isGreaterThan",
                        CelOverloadDecl.newMemberOverload("quantity_is_greater_than", SimpleType.BOOL, QUANTITY, QUANTITY)),
                CelFunctionDecl.newFunctionDeclaration("isLessThan",
                        CelOverloadDecl.newMemberOverload("quantity_is_less_than", SimpleType.BOOL, QUANTITY, QUANTITY)),
                CelFunctionDecl.newFunctionDeclaration("compareTo",
                        CelOverloadDecl.newMemberOverload("quantity_compare_to", SimpleType.INT, QUANTITY, QUANTITY)),
                CelFunctionDecl.newFunctionDeclaration("asApproximateFloat",
                        CelOverloadDecl.newMemberOverload("quantity_get_float", SimpleType.DOUBLE, QUANTITY)),
                CelFunctionDecl.newFunctionDeclaration("asInteger",
                        CelOverloadDecl.newMemberOverload("quantity_get_int", SimpleType.INT, QUANTITY)),
                CelFunctionDecl.newFunctionDeclaration("isInteger",
                        CelOverloadDecl.newMemberOverload("quantity_is_integer", SimpleType.BOOL, QUANTITY)),
                CelFunctionDecl.newFunctionDeclaration("add",
                        CelOverloadDecl.newMemberOverload("quantity_add", QUANTITY, QUANTITY, QUANTITY),
                        CelOverloadDecl.newMemberOverload("quantity_add_int", QUANTITY, QUANTITY, SimpleType.INT)),
                CelFunctionDecl.newFunctionDeclaration("sub",
                        CelOverloadDecl.newMemberOverload("quantity_sub", QUANTITY, QUANTITY, QUANTITY),
                        CelOverloadDecl.newMemberOverload("quantity_sub_int", QUANTITY, QUANTITY, SimpleType.INT)));
    }

    static List<CelFunctionBinding> bindings() {
        return List.of(
                CelFunctionBinding.from("string_to_quantity", String.class, QuantityLibrary::parse),
                CelFunctionBinding.from("is_quantity_string", String.class, Quantity::isQuantity),
                CelFunctionBinding.from("quantity_sign", KubeQuantity.class, q -> (long) q.amount().signum()),
                CelFunctionBinding.from("quantity_is_greater_than", KubeQuantity.class, KubeQuantity.class,
                        (a, b) -> a.amount().compareTo(b.amount()) > 0),
                CelFunctionBinding.from("quantity_is_less_than", KubeQuantity.class, KubeQuantity.class,
                        (a, b) -> a.amount().compareTo(b.amount()) < 0),
                CelFunctionBinding.from("quantity_compare_to", KubeQuantity.class, KubeQuantity.class,
                        (a, b) -> (long) Integer.signum(a.amount().compareTo(b.amount()))),
                CelFunctionBinding.from("quantity_get_float", KubeQuantity.class, q -> q.amount().doubleValue()),
                CelFunctionBinding.from("quantity_get_int", KubeQuantity.class, QuantityLibrary::asInteger),
                CelFunctionBinding.from("quantity_is_integer", KubeQuantity.class, QuantityLibrary::isInteger),
                CelFunctionBinding.from("quantity_add", KubeQuantity.class, KubeQuantity.class,
                        (a, b) -> new KubeQuantity(a.amount().add(b.amount()))),
                CelFunctionBinding.from("quantity_add_int", KubeQuantity.class, Long.class,
                        (a, b) -> new KubeQuantity(a.amount().add(BigDecimal.valueOf(b)))),
                CelFunctionBinding.from("quantity_sub", KubeQuantity.class, KubeQuantity.class,
                        (a, b) -> new KubeQuantity(a.amount().subtract(b.amount()))),
                CelFunctionBinding.from("quantity_sub_int", KubeQuantity.class, Long.class,
                        (a, b) -> new KubeQuantity(a.amount().subtract(BigDecimal.valueOf(b)))));
    }

    private static KubeQuantity parse(String s) {
        try {
            return KubeQuantity.of(Quantity.parse(s));
        } catch (InvalidQuantityException e) {
            // kube wraps resource.ParseQuantity's error as it is
            throw new LibraryError(e.getMessage());
        }
    }

    /** resource.Quantity's AsInt64 succeeds for whole amounts that fit in an int64. */
    private static boolean isInteger(KubeQuantity q) {
        BigDecimal v = q.amount();
        return v.signum() == 0 || v.stripTrailingZeros().scale() <= 0 && v.compareTo(MIN_LONG) >= 0 && v.compareTo(MAX_LONG) <= 0;
    }

    private static long asInteger(KubeQuantity q) {
        if (!isInteger(q)) {
            throw new LibraryError("cannot convert value to integer");
        }
        return q.amount().longValueExact();
    }
}
