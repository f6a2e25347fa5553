package dev.notifier.support;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A route unit test: the real routes, advised with mocks, on a database of the test's own. */
public abstract class AdvisedRouteTestBase extends DatabaseTestBase {

    protected AdvisedNotifier notifier;

    @BeforeEach
    void startAdvisedNotifier() throws Exception {
        notifier = AdvisedNotifier.start(db).startRoutes();
    }

    @AfterEach
    void stopAdvisedNotifier() {
        if (notifier != null) {
            notifier.close();
        }
    }
}
