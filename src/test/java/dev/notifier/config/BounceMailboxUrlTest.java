package dev.notifier.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BounceMailboxUrlTest {

    @Test
    void shouldReadProtocolHostPortAndFolderWithTheirDefaults() {
        assertThat(BounceBeans.mailbox("imaps://mail.bank.example:993/INBOX"))
                .isEqualTo(new BounceBeans.Mailbox("imaps", "mail.bank.example", 993, "INBOX"));
        assertThat(BounceBeans.mailbox("imaps://mail.bank.example"))
                .isEqualTo(new BounceBeans.Mailbox("imaps", "mail.bank.example", 993, "INBOX"));
        assertThat(BounceBeans.mailbox("IMAP://127.0.0.1/Bounces"))
                .isEqualTo(new BounceBeans.Mailbox("imap", "127.0.0.1", 143, "Bounces"));
    }

    @Test
    void shouldRefuseAnotherSchemeCredentialsOrOptionsInTheUrl() {
        assertThatThrownBy(() -> BounceBeans.mailbox("pop3://mail.bank.example")).hasMessageContaining("must be imaps://");
        assertThatThrownBy(() -> BounceBeans.mailbox("imaps://user:secret@mail.bank.example"))
                .hasMessageContaining("takes no user, password or options").hasMessageNotContaining("secret");
        assertThatThrownBy(() -> BounceBeans.mailbox("imaps://mail.bank.example/INBOX?delete=true"))
                .hasMessageContaining("takes no user, password or options");
        assertThatThrownBy(() -> BounceBeans.mailbox("imaps://")).hasMessageContaining("NOTIFIER_BOUNCE_IMAP_URL is no URL");
        assertThatThrownBy(() -> BounceBeans.mailbox("imaps://u:s3cret^@mail")).hasMessageNotContaining("s3cret");
    }
}
