package dev.notifier.bounce;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.camel.component.mail.MailConsumer;
import org.apache.camel.component.mail.MailEndpoint;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;

/** Greedy reading of the bounce mailbox, and why it can never loop on a failing mail. */
class BouncePollsTest {

    private final DefaultCamelContext context = new DefaultCamelContext();
    private final MailEndpoint endpoint = (MailEndpoint) context.getEndpoint("imap://127.0.0.1:1/INBOX");
    private final MailConsumer consumer = new MailConsumer(endpoint, exchange -> { }, null);
    private final BouncePolls polls = new BouncePolls();

    @Test
    void shouldReadOnAtOnceAfterAPollWithoutFailures() {
        assertThat(polls.begin(consumer, endpoint)).isTrue();
        polls.commit(consumer, endpoint, 100);
        assertThat(consumer.isGreedy()).isTrue();
    }

    @Test
    void shouldWaitForTheScheduleAfterAPollInWhichAMailFailed() {
        polls.begin(consumer, endpoint);
        polls.failed();
        polls.commit(consumer, endpoint, 100);
        assertThat(consumer.isGreedy()).isFalse();

        polls.begin(consumer, endpoint);
        polls.commit(consumer, endpoint, 3);
        assertThat(consumer.isGreedy()).as("the failure counts for its own poll only").isTrue();
    }

    @Test
    void shouldWaitForTheScheduleAfterAPollThatFailedAsAWhole() throws Exception {
        polls.begin(consumer, endpoint);
        polls.commit(consumer, endpoint, 1);
        assertThat(polls.rollback(consumer, endpoint, 0, new IllegalStateException("the mail server went away"))).isFalse();
        assertThat(consumer.isGreedy()).isFalse();
    }
}
