package javafx.util;

import java.util.Objects;

/** Stands in for JavaFX's {@code Pair}, which course bots use as a plain tuple. */
public class Pair<K, V> {
    private final K key;
    private final V value;

    public Pair(K key, V value) {
        this.key = key;
        this.value = value;
    }

    public K getKey() {
        return key;
    }

    public V getValue() {
        return value;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Pair && Objects.equals(key, ((Pair<?, ?>) other).key)
                && Objects.equals(value, ((Pair<?, ?>) other).value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, value);
    }

    @Override
    public String toString() {
        return key + "=" + value;
    }
}
