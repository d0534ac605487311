-- The role the API and the projector run as. It has no UPDATE, DELETE or TRUNCATE
-- privilege on the log, so that a compromised service cannot rewrite it (docs/security.md,
-- "Database roles"). A login role is made a member of ledger_service by the operator
-- (`ledger dev` does it for the embedded cluster).

DO $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'ledger_service') THEN
        BEGIN
            CREATE ROLE ledger_service NOLOGIN;
        EXCEPTION
            WHEN duplicate_object OR unique_violation THEN NULL;  -- created concurrently
        END;
    END IF;
END $$;

REVOKE ALL ON events FROM PUBLIC;
GRANT SELECT, INSERT ON events TO ledger_service;

DO $$
BEGIN
    EXECUTE format('GRANT CONNECT, CREATE, TEMPORARY ON DATABASE %I TO ledger_service', current_database());
END $$;

GRANT USAGE ON SCHEMA public TO ledger_service;
GRANT SELECT ON schema_migrations TO ledger_service;
