package dev.notifier;

/**
 * ConflictingDuplicateTest with the batch intake: the first record, its re-serialised duplicate and
 * the conflicting one can share a batch; the first in the batch's order stands.
 */
class BatchConflictingDuplicateTest extends ConflictingDuplicateTest {

    @Override
    protected boolean batchIntake() {
        return true;
    }
}
