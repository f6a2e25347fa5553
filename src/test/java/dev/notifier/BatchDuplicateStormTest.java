package dev.notifier;

/** DuplicateStormTest with the batch intake: the duplicate storm, a poll at a time. */
class BatchDuplicateStormTest extends DuplicateStormTest {

    @Override
    protected boolean batchIntake() {
        return true;
    }
}
