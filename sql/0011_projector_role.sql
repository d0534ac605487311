-- Least privilege between the read side's writer and its readers (docs/security.md). Until
-- now the API, the console and the projector ran as members of one role, ledger_service,
-- which owned the projection schemas: the internet-facing process could write
-- proj_billing.keys (mint or un-revoke a key) with no event in the log. From here:
--
--   ledger_service    the API and the console: SELECT and INSERT on the log, SELECT only on
--                     the projections; creates no schema.
--   ledger_projector  the projector (`ledger project`, `ledger replay`): SELECT and INSERT
--                     on the log (its checkpoints and webhook attempts are events), and the
--                     owner of every projection schema, which it alone creates and writes.
--
-- A login role is made a member of one of them by the operator (`ledger dev` makes one of
-- each for the embedded cluster). The projector hands every schema it creates to
-- ledger_projector and grants ledger_service SELECT on it (`ProjectionSchema.handOver`).

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ledger_projector') THEN
        BEGIN
            CREATE ROLE ledger_projector NOLOGIN;
        EXCEPTION
            WHEN duplicate_object OR unique_violation THEN NULL;  -- created concurrently
        END;
    END IF;
END $$;

DO $$
BEGIN
    EXECUTE format('GRANT CONNECT, CREATE, TEMPORARY ON DATABASE %I TO ledger_projector', current_database());
    EXECUTE format('REVOKE CREATE ON DATABASE %I FROM ledger_service', current_database());
END $$;

GRANT USAGE ON SCHEMA public TO ledger_projector;
GRANT SELECT ON schema_migrations TO ledger_projector;
GRANT SELECT, INSERT ON events TO ledger_projector;
GRANT SELECT ON event_ids, event_keys, event_streams, event_log_settings, event_log_partitions TO ledger_projector;
GRANT EXECUTE ON FUNCTION events_ensure_partitions(bigint) TO ledger_projector;

-- The projection schemas that exist already move to ledger_projector, with everything in
-- them, and ledger_service keeps only SELECT. A schema the migrating role may not alter
-- (not its own, and the role is no superuser) is left as it is, with a notice: the
-- projector moves it when it starts (docs/security.md, "Upgrading to separate roles").
DO $$
DECLARE
    s record;
    r record;
BEGIN
    FOR s IN SELECT n.nspname, n.nspowner FROM pg_namespace n WHERE n.nspname LIKE 'proj\_%' LOOP
        IF NOT pg_has_role(s.nspowner, 'MEMBER') THEN
            RAISE NOTICE 'schema % is not the migrating role''s: the projector hands it to ledger_projector when it starts', s.nspname;
            CONTINUE;
        END IF;
        EXECUTE format('ALTER SCHEMA %I OWNER TO ledger_projector', s.nspname);
        FOR r IN SELECT c.relname, c.relkind FROM pg_class c
                 WHERE c.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = s.nspname)
                   AND c.relkind IN ('r', 'p', 'v', 'm') LOOP
            EXECUTE format('ALTER TABLE %I.%I OWNER TO ledger_projector', s.nspname, r.relname);
        END LOOP;
        EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA %I FROM ledger_service', s.nspname);
        EXECUTE format('GRANT USAGE ON SCHEMA %I TO ledger_service', s.nspname);
        EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO ledger_service', s.nspname);
    END LOOP;
END $$;
