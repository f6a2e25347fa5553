package dev.notifier.trace;

/** The same traces with batch intake (notifier.kafka.batch=true): one span per record, not per batch. */
class TracingPipelineBatchTest extends TracingPipelineTest {

    @Override
    protected boolean batchIntake() {
        return true;
    }
}
