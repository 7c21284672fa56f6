package io.kubelix.support.cel;

import io.kubelix.support.quantity.Quantity;

import java.math.BigDecimal;

/**
 * A CEL {@code kubernetes.Quantity} value (kube's {@code apiservercel.Quantity}): the amount of a
 * resource.Quantity. Two quantities are equal when their amounts are ({@code quantity('1') ==
 * quantity('1000m')}), as kube's {@code Quantity.Equal} compares them.
 */
public record KubeQuantity(BigDecimal amount) {

    static KubeQuantity of(Quantity q) {
        return new KubeQuantity(q.value());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KubeQuantity q && amount.compareTo(q.amount) == 0;
    }

    @Override
    public int hashCode() {
        return amount.stripTrailingZeros().hashCode();
    }

    @Override
    public String toString() {
        return amount.stripTrailingZeros().toPlainString();
    }
}
