package dev.notifier.delivery.template;

import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.notifier.delivery.UndeliverableException;
import dev.notifier.event.Channel;
import dev.notifier.event.TransferEvent;
import freemarker.cache.ClassTemplateLoader;
import freemarker.cache.ConditionalTemplateConfigurationFactory;
import freemarker.cache.FileExtensionMatcher;
import freemarker.cache.FileTemplateLoader;
import freemarker.cache.FirstMatchTemplateConfigurationFactory;
import freemarker.cache.MultiTemplateLoader;
import freemarker.cache.TemplateLoader;
import freemarker.core.HTMLOutputFormat;
import freemarker.core.OutputFormat;
import freemarker.core.PlainTextOutputFormat;
import freemarker.core.TemplateClassResolver;
import freemarker.core.TemplateConfiguration;
import freemarker.template.Configuration;
import freemarker.template.Template;
import freemarker.template.TemplateException;
import freemarker.template.TemplateExceptionHandler;
import freemarker.template.TemplateNotFoundException;
import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The messages' texts, outside the code: {@code templates/<channel>/<language>/<name>} ({@code th} or
 * {@code en}; a channel without Thai falls back to English), rendered with FreeMarker. The file's
 * extension chooses the escaping, on by default for every value from an event: {@code .html} is HTML,
 * {@code .json} the inside of JSON strings ({@link JsonStringFormat}), {@code .txt} plain text.
 * Templates are read and tried at start ({@link #check}): an error there stops the start, with the
 * file and line; they are not reloaded while running, so an edit takes effect at the next start.
 */
public final class Templates {

    /** A JSON request template must render to JSON, whatever the event held. */
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Configuration freemarker;
    private final MessageModel model;

    private Templates(Configuration freemarker, MessageModel model) {
        this.freemarker = freemarker;
        this.model = model;
    }

    /**
     * @param locations where templates are, first match wins: {@code file:<directory>} or
     *                  {@code classpath:<package path>} ({@code notifier.templates.location})
     */
    public static Templates load(List<String> locations, MessageModel model) throws IOException {
        Configuration configuration = new Configuration(Configuration.VERSION_2_3_34);
        List<TemplateLoader> loaders = new ArrayList<>();
        for (String location : locations) {
            String where = location.strip();
            if (where.startsWith("file:")) {
                loaders.add(new FileTemplateLoader(new File(where.substring("file:".length()))));
            } else if (where.startsWith("classpath:")) {
                loaders.add(new ClassTemplateLoader(Templates.class.getClassLoader(), where.substring("classpath:".length())));
            } else if (!where.isEmpty()) {
                throw new IllegalStateException("notifier.templates.location: " + where + " is neither file: nor classpath:");
            }
        }
        configuration.setTemplateLoader(new MultiTemplateLoader(loaders.toArray(TemplateLoader[]::new)));
        configuration.setDefaultEncoding("UTF-8");
        configuration.setLocalizedLookup(false);
        // read once: an edit takes effect at the next start, where it is checked
        configuration.setTemplateUpdateDelayMilliseconds(Long.MAX_VALUE);
        configuration.setTemplateExceptionHandler(TemplateExceptionHandler.RETHROW_HANDLER);
        configuration.setLogTemplateExceptions(false);
        configuration.setWrapUncheckedExceptions(true);
        // a template is text with values in it, not code: no classes, no Java API
        configuration.setNewBuiltinClassResolver(TemplateClassResolver.ALLOWS_NOTHING_RESOLVER);
        configuration.setAPIBuiltinEnabled(false);
        configuration.setTemplateConfigurations(new FirstMatchTemplateConfigurationFactory(
                escaping("html", HTMLOutputFormat.INSTANCE),
                escaping("json", JsonStringFormat.INSTANCE),
                escaping("txt", PlainTextOutputFormat.INSTANCE)).allowNoMatch(false)
                .noMatchErrorDetails("a template's name ends in .html, .json or .txt"));
        return new Templates(configuration, model);
    }

    private static ConditionalTemplateConfigurationFactory escaping(String extension, OutputFormat format) {
        TemplateConfiguration configuration = new TemplateConfiguration();
        configuration.setOutputFormat(format);
        configuration.setAutoEscapingPolicy(Configuration.ENABLE_IF_SUPPORTED_AUTO_ESCAPING_POLICY);
        return new ConditionalTemplateConfigurationFactory(new FileExtensionMatcher(extension), configuration);
    }

    public MessageModel model() {
        return model;
    }

    /**
     * The template rendered for the event; what stops it stops it every time ({@link UndeliverableException}).
     *
     * @param address the channel's address in the recipient ({@code to} in the template)
     */
    public String render(Channel channel, String name, TransferEvent event, String address) {
        return renderAll(channel, List.of(name), event, address).get(0);
    }

    /** Several templates of one message (an email's subject and bodies) from one model of the event, in order. */
    public List<String> renderAll(Channel channel, List<String> names, TransferEvent event, String address) {
        Map<String, Object> values = model.of(event, address);
        List<String> rendered = new ArrayList<>(names.size());
        for (String name : names) {
            try {
                rendered.add(render(template(channel, MessageModel.language(event), name), values));
            } catch (IOException | TemplateException | RuntimeException e) {
                throw new UndeliverableException("cannot render " + channel.id() + "/" + name + ": " + explain(e), e);
            }
        }
        return rendered;
    }

    /**
     * Reads and tries every named template of a channel in both languages (English is required,
     * Thai falls back to it) with a sample event, with and without a name: a missing file, a syntax
     * error, an unknown value or JSON that does not parse is an {@link IllegalStateException} naming
     * the template. Run at start.
     */
    public void check(Channel channel, List<String> names, List<TransferEvent> samples) {
        for (String name : names) {
            for (String language : List.of("en", "th")) {
                try {
                    Template template = template(channel, language, name);
                    for (TransferEvent sample : samples) {
                        String rendered = render(template, model.of(sample, "sample-address"));
                        if (name.endsWith(".json")) {
                            JSON.readTree(rendered);
                        }
                    }
                } catch (IOException | TemplateException | RuntimeException e) {
                    throw new IllegalStateException("template " + channel.id() + "/" + language + "/" + name
                            + " cannot be used: " + explain(e), e);
                }
            }
        }
    }

    /** The message and its causes' (FreeMarker often says "see cause exception" and puts the reason there). */
    private static String explain(Throwable error) {
        StringBuilder text = new StringBuilder(String.valueOf(error.getMessage()));
        for (Throwable cause = error.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause.getMessage() != null && !text.toString().contains(cause.getMessage())) {
                text.append(": ").append(cause.getMessage());
            }
        }
        return text.toString();
    }

    private Template template(Channel channel, String language, String name) throws IOException {
        try {
            return freemarker.getTemplate(channel.id() + "/" + language + "/" + name);
        } catch (TemplateNotFoundException missing) {
            if (language.equals("en")) {
                throw missing;
            }
            return freemarker.getTemplate(channel.id() + "/en/" + name);
        }
    }

    private static String render(Template template, Map<String, Object> values) throws IOException, TemplateException {
        StringWriter out = new StringWriter(512);
        template.process(values, out);
        return out.toString();
    }
}
