package dev.notifier.security;

/** ContentOnlyABankSendsTest through the batch intake (consume-events-batch, record-batch): the same parser, the same rules. */
class BatchContentOnlyABankSendsTest extends ContentOnlyABankSendsTest {

    @Override
    protected boolean batchIntake() {
        return true;
    }
}
