package dev.notifier.event;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class UntrustedTextTest {

    @Nested
    class WithoutFormatCharacters {

        @Test
        void shouldDropBidiZeroWidthAndTagCharactersAndKeepEverythingElse() {
            String tagA = Character.toString(0xE0041);
            String grinning = Character.toString(0x1F600);

            assertThat(UntrustedText.withoutFormatCharacters("\u202Bสม\u200Dชาย\u2067 " + tagA + grinning + "\r\u00AD"))
                    .isEqualTo("สมชาย " + grinning + "\r");
        }

        @Test
        void shouldReturnTheSameTextWhenItHoldsNone() {
            String name = "สมชาย ใจดี";

            assertThat(UntrustedText.withoutFormatCharacters(name)).isSameAs(name);
        }
    }

    @Nested
    class OneLine {

        @Test
        void shouldTurnControlFormatAndSeparatorCharactersIntoOneSpace() {
            assertThat(UntrustedText.oneLine("550\r\n5.1.1\u0000 user\u2028unknown\u202E \u200B end", 100))
                    .isEqualTo("550 5.1.1 user unknown end");
        }

        @Test
        void shouldReplaceALoneSurrogateWhichPostgresqlCannotStore() {
            assertThat(UntrustedText.oneLine("a\uD800b\uDC00c", 100)).isEqualTo("a\uFFFDb\uFFFDc");
        }

        @Test
        void shouldKeepThaiWithItsCombiningMarks() {
            assertThat(UntrustedText.oneLine("โอนเงินสำเร็จ", 100)).isEqualTo("โอนเงินสำเร็จ");
        }

        @Test
        void shouldCutAtACharacterBoundaryAndSaySo() {
            String grinning = Character.toString(0x1F600);

            String cut = UntrustedText.oneLine(grinning.repeat(10), 5);

            assertThat(cut).isEqualTo(grinning.repeat(2) + "…").hasSizeLessThanOrEqualTo(5);
        }

        @Test
        void shouldReturnTextWithinTheLimitAsItWas() {
            assertThat(UntrustedText.oneLine("push gateway answered HTTP 400", 30)).isEqualTo("push gateway answered HTTP 400");
        }
    }

    /**
     * Cost is counted, not timed: every read of a character goes through {@link CountingText}. What
     * a regular expression tried at each position would read is quadratic in the input's length.
     */
    @Nested
    class LinearCost {

        private static final int LENGTH = 200_000;

        @ParameterizedTest(name = "{0}")
        @ValueSource(strings = {"word characters without @", "@ after a long local part", "dots and @",
                "many @", "long domain"})
        void shouldReadEachCharacterABoundedNumberOfTimesWhenMasking(String shape) {
            CountingText text = new CountingText(adversarial(shape));

            Mask.emailsIn(text);

            assertThat(text.reads()).isLessThanOrEqualTo(4L * LENGTH);
        }

        @Test
        void shouldReadOnlyABoundedPrefixWhenMakingOneLine() {
            CountingText text = new CountingText("x".repeat(LENGTH));

            UntrustedText.oneLine(text, 100);

            assertThat(text.reads()).isLessThanOrEqualTo(1_000);
        }

        @Test
        void shouldReadEachCharacterOnceWhenCheckingAnIdentifier() {
            CountingText text = new CountingText("x".repeat(LENGTH));

            assertThat(UntrustedText.isVisibleIdentifier(text)).isTrue();
            assertThat(text.reads()).isLessThanOrEqualTo(2L * LENGTH);
        }

        private static String adversarial(String shape) {
            return switch (shape) {
                case "word characters without @" -> "a".repeat(LENGTH);
                case "@ after a long local part" -> "a".repeat(LENGTH - 1) + "@";
                case "dots and @" -> "a.".repeat(LENGTH / 4) + "@" + "b.".repeat(LENGTH / 4);
                case "many @" -> "a@".repeat(LENGTH / 2);
                default -> "a@" + "b".repeat(LENGTH - 2);
            };
        }
    }

    /** A CharSequence that counts how often its characters are read. */
    static final class CountingText implements CharSequence {
        private final String text;
        private long reads;

        CountingText(String text) {
            this.text = text;
        }

        long reads() {
            return reads;
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public char charAt(int index) {
            reads++;
            return text.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            reads += end - start;
            return text.subSequence(start, end);
        }

        @Override
        public String toString() {
            reads += text.length();
            return text;
        }
    }
}
