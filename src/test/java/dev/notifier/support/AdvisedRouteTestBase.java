package dev.notifier.support;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A route unit test: the real routes, advised with mocks, on a database of the test's own. */
public abstract class AdvisedRouteTestBase {

    protected TestDatabase db;
    protected AdvisedNotifier notifier;

    @BeforeEach
    void startAdvisedNotifier() throws Exception {
        db = new TestDatabase();
        notifier = AdvisedNotifier.start(db).startRoutes();
    }

    @AfterEach
    void stopAdvisedNotifier() {
        if (notifier != null) {
            notifier.close();
        }
        db.close();
    }
}
