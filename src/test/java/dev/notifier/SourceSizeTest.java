package dev.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every source file of the service reads in one sitting: none over 200 lines (issue 13's rule). */
class SourceSizeTest {

    private static final int MAX_LINES = 200;

    @Test
    void shouldKeepEveryServiceSourceFileWithin200Lines() throws IOException {
        Map<Path, Integer> tooLong;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            List<Path> sources = files.filter(f -> f.toString().endsWith(".java")).toList();
            assertThat(sources).hasSizeGreaterThan(50);
            tooLong = sources.stream().collect(Collectors.toMap(f -> f, SourceSizeTest::lines)).entrySet().stream()
                    .filter(e -> e.getValue() > MAX_LINES)
                    .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        }

        assertThat(tooLong).as("source files over %d lines", MAX_LINES).isEmpty();
    }

    private static int lines(Path file) {
        try {
            return Files.readAllLines(file).size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
