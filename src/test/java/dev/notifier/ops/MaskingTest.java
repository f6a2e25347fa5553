package dev.notifier.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MaskingTest {

    @Test
    void shouldKeepTheFirstLetterAndTheDomainOfAnEmailAddress() {
        assertThat(Masking.email("somchai@example.com")).isEqualTo("s***@example.com");
        assertThat(Masking.email("not an address")).isEqualTo("***");
    }

    @Test
    void shouldKeepTheEndsOfAPushTokenOnly() {
        assertThat(Masking.pushToken("device-token-abc")).isEqualTo("devi…abc");
        assertThat(Masking.pushToken("short")).isEqualTo("…");
    }

    @Test
    void shouldChangeNothingWhenMaskedTwice() {
        assertThat(Masking.email(Masking.email("somchai@example.com"))).isEqualTo("s***@example.com");
        assertThat(Masking.pushToken(Masking.pushToken("device-token-abc"))).isEqualTo("devi…abc");
        assertThat(Masking.text("to s***@example.com", null)).isEqualTo("to s***@example.com");
    }

    @Test
    void shouldMaskAddressesAndTheTokenInsideFreeText() {
        assertThat(Masking.text("550 5.1.1 <somchai@example.com>: Recipient address rejected", null))
                .isEqualTo("550 5.1.1 <s***@example.com>: Recipient address rejected");
        assertThat(Masking.text("push gateway answered 400: unknown device token device-token-abc", "device-token-abc"))
                .isEqualTo("push gateway answered 400: unknown device token devi…abc");
    }
}
