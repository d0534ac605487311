-- Recovery of what Apple sent (docs/appstore.md, "Recovery: the notification history sync").
-- The projector's process asks Apple's notification history on a schedule and records each
-- notification the log does not hold, through the same rules as a delivered one. Two
-- things follow here:
--
-- 1. The projector's role may append the facts a notification records (until now only the
--    API's role could, migration 0013's lists).
-- 2. `appstore_sync_runs`: one row per sync, the window it asked and how far it got (the
--    pagination token to resume from after a crash), what it found and recovered. It is
--    the job's own progress, like a projection's checkpoint, not a ledger fact: what it
--    recovered is in the log, each event naming its sync (`metadata.sync_id`). Only
--    `AppStoreSyncRuns` names it.
INSERT INTO event_writers (role, event_type) VALUES
    ('ledger_projector', 'appstore.transaction_recorded'),
    ('ledger_projector', 'appstore.subscription_ended'),
    ('ledger_projector', 'appstore.renewal_failed'),
    ('ledger_projector', 'appstore.notification_acknowledged')
ON CONFLICT DO NOTHING;

CREATE TABLE appstore_sync_runs (
    sync_id          uuid    NOT NULL,
    bundle_id        text    NOT NULL,
    environment      text    NOT NULL,
    -- Apple's window, in microseconds since the epoch: [window_start_us, window_end_us).
    window_start_us  bigint  NOT NULL,
    window_end_us    bigint  NOT NULL,
    started_us       bigint  NOT NULL,
    -- Last written (a page recorded, the end): a run unfinished and quiet for long was cut off.
    updated_us       bigint  NOT NULL,
    finished_us      bigint,
    -- The token of the next page to ask for; NULL before the first page and at the end.
    pagination_token text,
    pages            integer NOT NULL DEFAULT 0,
    -- Notifications in Apple's history for the window; those the log did not hold, recorded now.
    seen             integer NOT NULL DEFAULT 0,
    recovered        integer NOT NULL DEFAULT 0,
    -- A run that stopped on an error: the error's stable code, and its text.
    failure_code     text,
    failure          text,
    CONSTRAINT appstore_sync_runs_pkey PRIMARY KEY (sync_id),
    CONSTRAINT appstore_sync_runs_window_check CHECK (window_start_us < window_end_us),
    CONSTRAINT appstore_sync_runs_environment_check CHECK (environment IN ('production', 'sandbox', 'local')),
    CONSTRAINT appstore_sync_runs_counts_check CHECK (pages >= 0 AND seen >= 0 AND recovered >= 0 AND recovered <= seen),
    CONSTRAINT appstore_sync_runs_text_check CHECK (length(bundle_id) <= 200 AND length(coalesce(pagination_token, '')) <= 4096
                                                    AND length(coalesce(failure, '')) <= 2000)
);
CREATE INDEX appstore_sync_runs_app_idx ON appstore_sync_runs (bundle_id, environment, started_us DESC);

REVOKE ALL ON appstore_sync_runs FROM PUBLIC;
-- The job runs in the projector's process; an operator may run one by hand (`ledger appstore
-- sync run`); the API shows the last ones in /readyz and /metrics; the console may show them.
GRANT SELECT, INSERT, UPDATE, DELETE ON appstore_sync_runs TO ledger_projector, ledger_operator;
GRANT SELECT ON appstore_sync_runs TO ledger_service, ledger_console;
