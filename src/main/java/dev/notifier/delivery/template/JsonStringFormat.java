package dev.notifier.delivery.template;

import freemarker.core.CommonMarkupOutputFormat;
import freemarker.core.CommonTemplateMarkupOutputModel;
import java.io.IOException;
import java.io.Writer;

/**
 * FreeMarker's output format for JSON request templates: every interpolated value is escaped as the
 * inside of a JSON string (quotes, backslashes, control characters, U+2028/U+2029), so a name or a
 * token from an event can never end a string or add a field. The template's own text is trusted and
 * written as it is.
 */
final class JsonStringFormat extends CommonMarkupOutputFormat<JsonStringFormat.Json> {

    static final JsonStringFormat INSTANCE = new JsonStringFormat();

    private JsonStringFormat() {
    }

    @Override
    public String getName() {
        return "JSON string";
    }

    @Override
    public String getMimeType() {
        return "application/json";
    }

    @Override
    public void output(String textToEsc, Writer out) throws IOException {
        out.write(escapePlainText(textToEsc));
    }

    @Override
    public String escapePlainText(String text) {
        StringBuilder escaped = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> escaped.append("\\\"");
                case '\\' -> escaped.append("\\\\");
                case '\n' -> escaped.append("\\n");
                case '\r' -> escaped.append("\\r");
                case '\t' -> escaped.append("\\t");
                default -> {
                    if (c < 0x20 || c == '\u2028' || c == '\u2029' || c == '<' || c == '>') {
                        escaped.append(String.format("\\u%04x", (int) c));
                    } else {
                        escaped.append(c);
                    }
                }
            }
        }
        return escaped.toString();
    }

    @Override
    public boolean isLegacyBuiltInBypassed(String builtInName) {
        return false;
    }

    @Override
    protected Json newTemplateMarkupOutputModel(String plainTextContent, String markupContent) {
        return new Json(plainTextContent, markupContent);
    }

    /** A piece of JSON string content, escaped or not yet. */
    static final class Json extends CommonTemplateMarkupOutputModel<Json> {

        Json(String plainTextContent, String markupContent) {
            super(plainTextContent, markupContent);
        }

        @Override
        public JsonStringFormat getOutputFormat() {
            return INSTANCE;
        }
    }
}
