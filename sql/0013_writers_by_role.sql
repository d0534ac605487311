-- Least privilege by surface (docs/security.md, "Database roles"). Until now the API, the
-- console and `ledger admin` shared ledger_service: a compromised API process could append
-- any event (`key.issued`, a credit, `operator.added`), write console credentials, and make
-- console sessions with no sign-in behind them. From here each surface has a role of its
-- own, and PostgreSQL itself checks which event types each may append:
--
--   ledger_service    the API: appends only the facts the API records (usage, App Store
--                     and SDK facts, the catalog's purchases and impressions, an
--                     organization's own education grant); no console table.
--   ledger_console    the console: appends the acts its pages offer, each under an operator
--                     with an open console session; keeps the sessions; reads credentials.
--   ledger_operator   `ledger admin` and `ledger archive`: any act, recorded under the
--                     operator's own login (`session_user`), never a typed name; adds and
--                     resets console credentials, ends sessions.
--   ledger_projector  the projector: checkpoints, set-asides, rebuild records, webhook
--                     deliveries and what they meter.
--
-- The schema's owner and superusers are not limited (migrations, restores, `ledger dev`'s
-- demo data). A login is made a member of one role by the operator (`ledger dev` makes one
-- of each). The lists are rows of `event_writers`, so that a later migration can change
-- them without replacing the check.

DO $$
DECLARE
    r text;
BEGIN
    FOREACH r IN ARRAY ARRAY['ledger_console', 'ledger_operator'] LOOP
        IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = r) THEN
            BEGIN
                EXECUTE format('CREATE ROLE %I NOLOGIN', r);
            EXCEPTION
                WHEN duplicate_object OR unique_violation THEN NULL;  -- created concurrently
            END;
        END IF;
        EXECUTE format('GRANT CONNECT, TEMPORARY ON DATABASE %I TO %I', current_database(), r);
        EXECUTE format('GRANT USAGE ON SCHEMA public TO %I', r);
        EXECUTE format('GRANT SELECT ON schema_migrations TO %I', r);
        EXECUTE format('GRANT SELECT, INSERT ON events TO %I', r);
        EXECUTE format('GRANT SELECT ON event_ids, event_keys, event_streams, event_log_settings, event_log_partitions TO %I', r);
        EXECUTE format('GRANT EXECUTE ON FUNCTION events_ensure_partitions(bigint) TO %I', r);
    END LOOP;
END $$;

-- Console credentials and sessions leave the API's role.
REVOKE ALL ON console_credentials, console_sessions FROM ledger_service;
GRANT SELECT ON console_credentials TO ledger_console;
GRANT SELECT, INSERT, UPDATE, DELETE ON console_sessions TO ledger_console;
GRANT SELECT, INSERT ON console_credentials TO ledger_operator;
GRANT SELECT, UPDATE ON console_sessions TO ledger_operator;

-- The projections: read by the console and the operators as by the API. The projector
-- grants the same on every schema it makes (`ProjectionSchema.handOver`).
DO $$
DECLARE
    s record;
    r text;
BEGIN
    FOR s IN SELECT n.nspname FROM pg_namespace n WHERE n.nspname LIKE 'proj\_%' LOOP
        FOREACH r IN ARRAY ARRAY['ledger_console', 'ledger_operator'] LOOP
            BEGIN
                EXECUTE format('GRANT USAGE ON SCHEMA %I TO %I', s.nspname, r);
                EXECUTE format('GRANT SELECT ON ALL TABLES IN SCHEMA %I TO %I', s.nspname, r);
            EXCEPTION WHEN insufficient_privilege THEN
                RAISE NOTICE 'schema % is not the migrating role''s: the projector grants % when it starts', s.nspname, r;
            END;
        END LOOP;
    END LOOP;
END $$;

-- Which role may append which event type; `*` is any type.
CREATE TABLE event_writers (
    role       name NOT NULL,
    event_type text NOT NULL,
    CONSTRAINT event_writers_pkey PRIMARY KEY (role, event_type),
    CONSTRAINT event_writers_type_check CHECK (event_type = '*' OR event_type ~ '^[A-Za-z0-9][A-Za-z0-9._:-]*$')
);
REVOKE ALL ON event_writers FROM PUBLIC;
GRANT SELECT ON event_writers TO PUBLIC;

INSERT INTO event_writers (role, event_type) VALUES
    -- The API: POST /v1/usage; the SDK's purchases and impressions; StoreKit transactions
    -- and App Store Server Notifications; an organization's education grant.
    ('ledger_service', 'usage.recorded'),
    ('ledger_service', 'iap.purchase_recorded'),
    ('ledger_service', 'iap.offer_impressions_counted'),
    ('ledger_service', 'appstore.transaction_recorded'),
    ('ledger_service', 'appstore.subscription_ended'),
    ('ledger_service', 'appstore.notification_acknowledged'),
    ('ledger_service', 'appstore.subscription_claimed'),
    ('ledger_service', 'org.education_eligibility_granted'),
    -- The console's acts (docs/console.md).
    ('ledger_console', 'credit.posted'),
    ('ledger_console', 'entry.corrected'),
    ('ledger_console', 'hold.captured'),
    ('ledger_console', 'hold.released'),
    ('ledger_console', 'key.revoked'),
    ('ledger_console', 'plan.set'),
    ('ledger_console', 'org.staff_education_decided'),
    -- Operators act on everything, under their own name.
    ('ledger_operator', '*'),
    -- The projector: the signed checkpoints, set-asides, the records of rebuilds compared
    -- and swapped, webhook deliveries and the usage they meter, balance thresholds crossed.
    ('ledger_projector', 'log.checkpoint'),
    ('ledger_projector', 'projection.event_set_aside'),
    ('ledger_projector', 'projection.rebuilt'),
    ('ledger_projector', 'webhook.delivery_attempted'),
    ('ledger_projector', 'webhook.balance_threshold_crossed'),
    ('ledger_projector', 'usage.recorded');

-- The check, once per append statement over its rows (the transition table), as the role
-- that appends: SECURITY INVOKER, so that `current_user` is that role.
CREATE FUNCTION events_check_writer() RETURNS trigger
LANGUAGE plpgsql
SET search_path = public, pg_temp
AS $$
DECLARE
    me name := current_user;
    allowed text[];
    bad record;
BEGIN
    IF (SELECT rolsuper FROM pg_roles WHERE rolname = me)
       OR pg_has_role(me, (SELECT relowner FROM pg_class WHERE oid = 'events'::regclass), 'MEMBER') THEN
        RETURN NULL;
    END IF;
    allowed := ARRAY(SELECT w.event_type FROM event_writers w WHERE pg_has_role(me, w.role, 'MEMBER'));
    IF NOT '*' = ANY (allowed) THEN
        SELECT i.position, i.type INTO bad FROM inserted i WHERE i.type <> ALL (allowed) ORDER BY i.position LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'role % may not append % events (event %)', me, bad.type, bad.position
                USING ERRCODE = 'insufficient_privilege',
                      HINT = 'each surface appends through a role of its own (docs/security.md, "Database roles")';
        END IF;
    END IF;
    -- An operator's act is recorded under the login that made it.
    IF pg_has_role(me, 'ledger_operator', 'MEMBER') THEN
        SELECT i.position, i.metadata -> 'actor' AS actor INTO bad FROM inserted i
        WHERE i.metadata -> 'actor' IS DISTINCT FROM jsonb_build_object('kind', 'operator', 'id', session_user::text)
        ORDER BY i.position LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'event % names % as its actor, not the operator % who is signed in to the database', bad.position, bad.actor, session_user
                USING ERRCODE = 'insufficient_privilege',
                      HINT = 'acts are recorded under the operator''s own login (docs/security.md, "Operators")';
        END IF;
    -- A console act is recorded under an operator signed in to the console (a session not
    -- ended; its idle and lifetime limits are the console's, on the console's clock).
    ELSIF pg_has_role(me, 'ledger_console', 'MEMBER') THEN
        SELECT i.position, i.metadata -> 'actor' AS actor INTO bad FROM inserted i
        WHERE i.metadata -> 'actor' ->> 'kind' IS DISTINCT FROM 'operator'
           OR NOT EXISTS (SELECT 1 FROM console_sessions s
                          WHERE s.operator = i.metadata -> 'actor' ->> 'id' AND s.ended_us IS NULL)
        ORDER BY i.position LIMIT 1;
        IF FOUND THEN
            RAISE EXCEPTION 'event % names % as its actor, who has no open console session', bad.position, bad.actor
                USING ERRCODE = 'insufficient_privilege',
                      HINT = 'the console acts only for an operator signed in to it (docs/security.md, "Operators")';
        END IF;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER events_check_writer AFTER INSERT ON events
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION events_check_writer();
