package dev.notifier.support;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A PostgreSQL database of its own for each test, migrated to the service's schema (unless the test
 * says otherwise), and a writer of recorded events. Every test that needs a database extends this,
 * directly or through {@link AdvisedRouteTestBase} or {@link PipelineTestBase}.
 */
public abstract class DatabaseTestBase {

    protected TestDatabase db;
    protected RecordedEvents events;

    @BeforeEach
    void createDatabase() {
        db = new TestDatabase();
        if (migrated()) {
            events = new RecordedEvents(db);
        }
    }

    /** False for a test of what the service does on a database without its schema. */
    protected boolean migrated() {
        return true;
    }

    @AfterEach
    void dropDatabase() {
        db.close();
    }
}
