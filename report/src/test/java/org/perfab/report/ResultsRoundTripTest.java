package org.perfab.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.perfab.model.ResultsJson;
import org.perfab.model.RunResults;

/**
 * Every field of {@code results.json} reads back as written: the report's fixtures (warnings,
 * profiles, cells without data, hostile names, changes past what a ratio says, 40 cells judged
 * together), written, read and written again, give the same text. {@code perfab report} and a merge
 * re-judge saved runs from it. ({@link RunFixture#builds} numbers each build's trials from 0, as no
 * run does: a run numbers a side's trials across its builds, and its file is refused.)
 */
class ResultsRoundTripTest {
    static Stream<Arguments> runs() {
        return Stream.of(
                Arguments.of("broker", (Supplier<RunResults>) RunFixture::broker),
                Arguments.of("spread", (Supplier<RunResults>) RunFixture::spread),
                Arguments.of("drifting", (Supplier<RunResults>) RunFixture::drifting),
                Arguments.of("many", (Supplier<RunResults>) () -> RunFixture.many(40)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    void readsBackAsWritten(String name, Supplier<RunResults> run) {
        String written = ResultsJson.write(run.get());
        assertEquals(written, ResultsJson.write(ResultsJson.read(written, name + "/results.json")), name);
    }
}
