-- The drift check (docs/operations.md, "Drift: the projections checked against the log").
-- The projector's process folds a sample of accounts again from the log, with the
-- projection's own fold, and compares them with the live rows at the live projection's
-- position. Like `appstore_sync_runs` and `stripe_sync_runs`, these are the job's own
-- records, not ledger facts: a check appends nothing and changes no projection. Only
-- `DriftChecks` names them.
--
-- `projection_drift_checks`: one row per check, what it compared and how it ended.
CREATE TABLE projection_drift_checks (
    check_id      uuid    NOT NULL,
    -- The order checks were recorded in (instants of two checks may be equal).
    seq           bigint  GENERATED ALWAYS AS IDENTITY,
    projection    text    NOT NULL,
    -- The live projection's position: the accounts were folded from the events up to it.
    position      bigint,
    started_us    bigint  NOT NULL,
    finished_us   bigint,
    -- The accounts compared, those found drifted (each named in the findings), and those
    -- chosen but not compared, each with why ("payer:acme: …").
    accounts      text[]  NOT NULL DEFAULT '{}',
    drifted       text[]  NOT NULL DEFAULT '{}',
    skipped       text[]  NOT NULL DEFAULT '{}',
    -- Events folded again.
    events        integer NOT NULL DEFAULT 0,
    -- A check that did not run or stopped: the error's stable code, and its text.
    failure_code  text,
    failure       text,
    CONSTRAINT projection_drift_checks_pkey PRIMARY KEY (check_id),
    CONSTRAINT projection_drift_checks_events_check CHECK (events >= 0),
    CONSTRAINT projection_drift_checks_text_check CHECK (length(projection) <= 100 AND length(coalesce(failure, '')) <= 2000)
);
CREATE INDEX projection_drift_checks_projection_idx ON projection_drift_checks (projection, seq DESC);

-- `projection_drift_findings`: what differs, figure by figure, for each account a check
-- found drifted: the live row's value and the value folded again from the log.
CREATE TABLE projection_drift_findings (
    check_id  uuid    NOT NULL REFERENCES projection_drift_checks (check_id) ON DELETE CASCADE,
    ordinal   integer NOT NULL,
    account   text    NOT NULL,
    figure    text    NOT NULL,
    live      text    NOT NULL,
    refolded  text    NOT NULL,
    CONSTRAINT projection_drift_findings_pkey PRIMARY KEY (check_id, ordinal),
    CONSTRAINT projection_drift_findings_text_check CHECK (length(account) <= 200 AND length(figure) <= 400
                                                           AND length(live) <= 1000 AND length(refolded) <= 1000)
);

REVOKE ALL ON projection_drift_checks, projection_drift_findings FROM PUBLIC;
-- The job runs in the projector's process (an operator's login may record one too); the
-- API shows the last one in /readyz and /metrics, the console on its projections page,
-- `ledger projections` in a terminal.
GRANT SELECT, INSERT, UPDATE, DELETE ON projection_drift_checks, projection_drift_findings TO ledger_projector, ledger_operator;
GRANT SELECT ON projection_drift_checks, projection_drift_findings TO ledger_service, ledger_console;
