package dev.notifier;

/** RestartTest with the batch intake: a stop mid-stream and a restart, a poll at a time. */
class BatchRestartTest extends RestartTest {

    @Override
    protected boolean batchIntake() {
        return true;
    }
}
