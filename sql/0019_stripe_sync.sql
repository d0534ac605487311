-- Recovery of what Stripe sent (docs/web-checkout.md, "Nothing the processor sent is lost").
-- The projector's process, or an operator (`ledger stripe reconcile`), lists an app's
-- Stripe events and records each the log does not hold, through the same rules as a
-- delivered webhook. `stripe_sync_runs` is the job's own progress, like a projection's
-- checkpoint, not a ledger fact: what a run recovered is in the log, each event naming its
-- run (`metadata.run_id`). Only `StripeSyncRuns` names it.
CREATE TABLE stripe_sync_runs (
    run_id        uuid    NOT NULL,
    app_id        text    NOT NULL,
    -- Events created since this instant were asked for (microseconds since the epoch).
    since_us      bigint  NOT NULL,
    started_us    bigint  NOT NULL,
    finished_us   bigint,
    dry_run       boolean NOT NULL,
    -- Events Stripe listed; those the log did not hold, recorded (or, dry, that would be).
    seen          integer NOT NULL DEFAULT 0,
    recovered     integer NOT NULL DEFAULT 0,
    refused       integer NOT NULL DEFAULT 0,
    failure_code  text,
    failure       text,
    CONSTRAINT stripe_sync_runs_pkey PRIMARY KEY (run_id),
    CONSTRAINT stripe_sync_runs_counts_check CHECK (seen >= 0 AND recovered >= 0 AND refused >= 0 AND recovered + refused <= seen),
    CONSTRAINT stripe_sync_runs_text_check CHECK (length(app_id) <= 200 AND length(coalesce(failure, '')) <= 2000)
);
CREATE INDEX stripe_sync_runs_app_idx ON stripe_sync_runs (app_id, started_us DESC);

REVOKE ALL ON stripe_sync_runs FROM PUBLIC;
GRANT SELECT, INSERT, UPDATE, DELETE ON stripe_sync_runs TO ledger_projector, ledger_operator;
GRANT SELECT ON stripe_sync_runs TO ledger_service, ledger_console;
