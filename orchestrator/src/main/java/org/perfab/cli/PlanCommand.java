package org.perfab.cli;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.perfab.ab.RunSettings;
import org.perfab.failure.BadInputException;
import org.perfab.model.NoiseFile;
import org.perfab.model.ResultsJson;
import org.perfab.model.Sizing;
import org.perfab.report.Format;
import org.perfab.report.Products;
import org.perfab.stats.ThresholdSettings;
import org.perfab.stats.Thresholds;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code perfab plan}: the sizing of a run, how many trials and builds it needs to find a change. */
@Command(
        name = "plan",
        mixinStandardHelpOptions = true,
        description = {
            "Size a run: say, per cell, how many builds and trials per side it needs to find a change of"
                    + " --min-effect percent with 80%% power (the run's sizing), from the noise an A/A run measured (its"
                    + " noise.json) or the baseline of any results.json. With the spread between builds known, the"
                    + " sizing puts code layout inside the test (several builds per side). A run has at most 20 builds"
                    + " and 1000 trials per side; a change no such run finds is \"more than\" the cap it lies beyond."
        },
        footer = {
            "",
            "Example:",
            "  perfab ab --base v1.2 --head v1.2 --builds 3 --out aa && perfab plan --noise"
                    + " aa/noise.json --min-effect 2"
        })
final class PlanCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    private final Session session;

    @Option(names = "--noise", paramLabel = "FILE", description = "The noise.json of an A/A run.")
    Path noise;

    @Parameters(
            index = "0",
            arity = "0..1",
            paramLabel = "RESULTS",
            description = "Or a results.json: its baseline's noise.")
    Path results;

    /** The change to find and the level to find it at. */
    @Mixin
    EffectOptions effect = new EffectOptions();

    @Mixin
    OutputOptions<Sizing> output = new OutputOptions<>(Products.SIZING, Format.TEXT);

    PlanCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        if ((noise == null) == (results == null)) {
            throw new ParameterException(spec.commandLine(), "give either --noise FILE or a RESULTS file");
        }
        Thresholds thresholds;
        try {
            thresholds = RunSettings.given(new ThresholdSettings(effect.alpha(), effect.minEffect(), Optional.empty()))
                    .verdictRules();
        } catch (Thresholds.Invalid e) {
            throw new ParameterException(spec.commandLine(), e.byOption());
        }
        NoiseFile file = noise != null
                ? NoiseFile.read(BadInputException.read(noise), noise.toString())
                : NoiseFile.of(ResultsJson.read(results));
        output.emit(session, Sizing.of(file, thresholds.minEffect(), thresholds.alpha()));
        return ExitCode.OK;
    }
}
