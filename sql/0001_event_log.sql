-- The event log: the one source of truth (docs/event-log.md). Every other table is a
-- projection.

DO $$
BEGIN
    IF (SELECT pg_encoding_to_char(encoding) FROM pg_database WHERE datname = current_database()) <> 'UTF8' THEN
        RAISE EXCEPTION 'the ledger database must use the UTF8 encoding: the hash chain hashes UTF-8 text';
    END IF;
END $$;

CREATE TABLE events (
    position          bigint      NOT NULL,
    event_id          uuid        NOT NULL,
    stream            text        NOT NULL,
    stream_version    bigint      NOT NULL,
    type              text        NOT NULL,
    data              jsonb       NOT NULL,
    metadata          jsonb       NOT NULL,
    occurred_at       timestamptz NOT NULL,
    recorded_at       timestamptz NOT NULL,
    corrects_position bigint,
    idempotency_key   text,
    request_hash      bytea,
    prev_hash         bytea       NOT NULL,
    hash              bytea       NOT NULL,
    CONSTRAINT events_pkey PRIMARY KEY (position),
    CONSTRAINT events_event_id_key UNIQUE (event_id),
    CONSTRAINT events_stream_version_key UNIQUE (stream, stream_version),
    CONSTRAINT events_position_check CHECK (position > 0),
    CONSTRAINT events_stream_version_check CHECK (stream_version > 0),
    -- Names are restricted so that the newline-separated hash input is unambiguous.
    -- Lengths are checked apart: a bounded repetition such as {0,199} makes PostgreSQL's
    -- regex engine cost ~25 µs a row, more than the rest of the insert.
    CONSTRAINT events_stream_check CHECK (stream ~ '^[A-Za-z0-9][A-Za-z0-9._:@+=-]*$' AND length(stream) <= 200),
    CONSTRAINT events_type_check CHECK (type ~ '^[A-Za-z0-9][A-Za-z0-9._:-]*$' AND length(type) <= 100),
    CONSTRAINT events_idempotency_key_check CHECK (idempotency_key ~ '^[\x21-\x7e]+$' AND length(idempotency_key) <= 200),
    CONSTRAINT events_request_hash_check CHECK ((idempotency_key IS NULL) = (request_hash IS NULL)),
    -- No foreign key: positions are gapless from 1, so any position between 1 and the
    -- event's own exists, and a per-row referential trigger would double the insert cost.
    CONSTRAINT events_corrects_earlier_check CHECK (corrects_position > 0 AND corrects_position < position),
    CONSTRAINT events_data_object_check CHECK (jsonb_typeof(data) = 'object'),
    CONSTRAINT events_metadata_object_check CHECK (jsonb_typeof(metadata) = 'object'),
    CONSTRAINT events_hash_length_check CHECK (octet_length(hash) = 32 AND octet_length(prev_hash) = 32)
);

CREATE UNIQUE INDEX events_idempotency_key_idx ON events (idempotency_key) WHERE idempotency_key IS NOT NULL;
CREATE INDEX events_corrects_position_idx ON events (corrects_position) WHERE corrects_position IS NOT NULL;

COMMENT ON TABLE events IS 'Append-only event log. position is gapless and commit-ordered; hash = sha256(prev_hash || event_canonical_bytes(row)). See docs/audit.md.';

-- The bytes each event's hash covers. docs/audit.md documents this formula so that an
-- auditor can recompute the chain with plain SQL; the service computes the same bytes.
CREATE FUNCTION event_canonical_bytes(e events) RETURNS bytea
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT convert_to(
        'ledger-event-v1' || E'\n' ||
        e.position::text || E'\n' ||
        e.event_id::text || E'\n' ||
        e.stream || E'\n' ||
        e.stream_version::text || E'\n' ||
        e.type || E'\n' ||
        to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || E'\n' ||
        to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || E'\n' ||
        coalesce(e.corrects_position::text, '') || E'\n' ||
        coalesce(e.idempotency_key, '') || E'\n' ||
        e.data::text || E'\n' ||
        e.metadata::text,
        'UTF8')
$$;

-- Immutability, for everybody: the service's role lacks the privileges as well (0002),
-- but only these triggers stop the table's owner and superusers.
CREATE FUNCTION events_reject_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the event log is append-only: % is not allowed on events', TG_OP
        USING ERRCODE = 'restrict_violation',
              HINT = 'append a correction event that names the original position instead';
END $$;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events FOR EACH ROW EXECUTE FUNCTION events_reject_change();
CREATE TRIGGER events_no_delete BEFORE DELETE ON events FOR EACH ROW EXECUTE FUNCTION events_reject_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION events_reject_change();

-- Every INSERT statement must come from an appender that holds the append lock and must
-- extend the log at its head, gap-free, with a linked hash chain. This makes the
-- ordering guarantee a property of the database, not only of our code.
CREATE FUNCTION events_check_append() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    lo bigint; hi bigint; n bigint; below bigint; top bigint; bad bigint;
BEGIN
    SELECT min(position), max(position), count(*) INTO lo, hi, n FROM inserted;
    IF n = 0 THEN RETURN NULL; END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()
                   AND classid = 1279607879 AND objid = 1 AND objsubid = 2 AND granted) THEN
        RAISE EXCEPTION 'events may only be appended while holding the append lock'
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    -- max() rather than EXISTS (… position > hi): a plpgsql plan is generic, and a
    -- range on a parameter is planned as a sequential scan that reads the whole log.
    SELECT coalesce(max(position), 0) INTO below FROM events WHERE position < lo;
    SELECT max(position) INTO top FROM events;
    IF hi - lo + 1 <> n OR lo <> below + 1 OR top <> hi THEN
        RAISE EXCEPTION 'append of positions % to % leaves a gap after %', lo, hi, below
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    SELECT x.position INTO bad FROM (
        SELECT e.position, e.prev_hash,
               lag(e.hash, 1, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea)
                   OVER (ORDER BY e.position) AS expected
        FROM events e WHERE e.position BETWEEN below AND hi
    ) x WHERE x.position >= lo AND x.prev_hash <> x.expected ORDER BY x.position LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'event % does not link to the hash of event %', bad, bad - 1
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    SELECT i.position INTO bad FROM inserted i
    WHERE i.stream_version > 1 AND NOT EXISTS (
        SELECT 1 FROM events e WHERE e.stream = i.stream AND e.stream_version = i.stream_version - 1)
    ORDER BY i.position LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'event % skips a version of its stream', bad
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER events_check_append AFTER INSERT ON events
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION events_check_append();
