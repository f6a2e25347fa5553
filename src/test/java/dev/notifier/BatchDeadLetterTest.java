package dev.notifier;

/**
 * DeadLetterTest with the batch intake: each poison record shares a batch with valid ones; it goes to
 * the DLQ and the rest of its batch is recorded and committed.
 */
class BatchDeadLetterTest extends DeadLetterTest {

    @Override
    protected boolean batchIntake() {
        return true;
    }
}
