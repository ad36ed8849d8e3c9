package org.perfab.report;

import freemarker.template.Configuration;
import freemarker.template.TemplateException;
import freemarker.template.TemplateExceptionHandler;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;

/**
 * The Freemarker templates of the renderers, under {@code templates/} beside this class. The
 * configuration is fixed (root locale, UTC, computer number format) so that output never depends
 * on the machine, and templates print only text their renderer has formatted and escaped.
 */
final class Templates {
    private static final Configuration FREEMARKER = configuration();

    private Templates() {}

    /** Returns template {@code name} applied to {@code model}. */
    static String render(String name, Map<String, Object> model) {
        try {
            StringWriter out = new StringWriter();
            FREEMARKER.getTemplate(name).process(model, out);
            return out.toString();
        } catch (IOException e) {
            throw new UncheckedIOException("the template " + name + " is missing from the jar", e);
        } catch (TemplateException e) {
            throw new IllegalStateException("the template " + name + " failed: " + e.getMessage(), e);
        }
    }

    private static Configuration configuration() {
        Configuration cfg = new Configuration(Configuration.VERSION_2_3_34);
        cfg.setClassForTemplateLoading(Templates.class, "templates");
        cfg.setDefaultEncoding("UTF-8");
        cfg.setLocale(Locale.ROOT);
        cfg.setTimeZone(TimeZone.getTimeZone("UTC"));
        cfg.setNumberFormat("computer");
        cfg.setTemplateExceptionHandler(TemplateExceptionHandler.RETHROW_HANDLER);
        cfg.setLogTemplateExceptions(false);
        cfg.setWrapUncheckedExceptions(true);
        cfg.setFallbackOnNullLoopVariable(false);
        return cfg;
    }
}
