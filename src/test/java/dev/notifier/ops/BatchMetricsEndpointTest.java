package dev.notifier.ops;

/** MetricsEndpointTest with the batch intake: records, duplicates and dead letters counted the same. */
class BatchMetricsEndpointTest extends MetricsEndpointTest {

    @Override
    protected boolean batchIntake() {
        return true;
    }
}
