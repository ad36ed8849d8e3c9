package org.perfab.cli;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.perfab.report.Format;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads {@code --format} by the format's lowercase name. */
final class FormatConverter implements ITypeConverter<Format> {
    @Override
    public Format convert(String value) {
        for (Format f : Format.values()) {
            if (f.id().equals(value.toLowerCase(Locale.ROOT))) {
                return f;
            }
        }
        throw new TypeConversionException("unknown format '" + value + "' (expected "
                + Arrays.stream(Format.values()).map(Format::id).collect(Collectors.joining(", ")) + ")");
    }
}
