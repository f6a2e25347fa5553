package dev.notifier.support;

import dev.notifier.delivery.template.MessageModel;
import dev.notifier.delivery.template.Templates;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.ZoneId;
import java.util.List;

/** The repository's own templates/ (what the service ships), as the service loads them. */
public final class TestTemplates {

    public static final ZoneId BANGKOK = ZoneId.of("Asia/Bangkok");

    private TestTemplates() {
    }

    public static Templates shipped() {
        return from("file:templates");
    }

    public static Templates from(String... locations) {
        try {
            return Templates.load(List.of(locations), new MessageModel(BANGKOK));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
