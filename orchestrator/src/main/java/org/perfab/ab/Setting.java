package org.perfab.ab;

import java.util.Objects;
import java.util.Optional;

/**
 * A run setting and where it was given, so that a refusal names the place to change it: an option
 * ({@code --trials}), a preset ({@code --preset release}), a workload's key ({@code 'trials' of
 * perfab.yaml at HEAD (1a2b3c4d5e6f)}) or perfab's own default. A run's settings are layered once,
 * in {@link RunSettings}: the command line over the preset over the workload over the defaults.
 *
 * @param value the value
 * @param from where it was given, as a reader would look for it
 */
public record Setting<T>(T value, String from) {
    public Setting {
        Objects.requireNonNull(value, "value");
        Objects.requireNonNull(from, "from");
    }

    /** Returns {@code value} as the option {@code name} gave it; empty when it was not given. */
    public static <T> Optional<Setting<T>> option(String name, Optional<T> value) {
        return value.map(v -> new Setting<>(v, name));
    }

    /** Returns the first of {@code layers} that was given, else {@code fallback}. */
    @SafeVarargs
    static <T> Setting<T> first(Setting<T> fallback, Optional<Setting<T>>... layers) {
        for (Optional<Setting<T>> layer : layers) {
            if (layer.isPresent()) {
                return layer.get();
            }
        }
        return fallback;
    }
}
