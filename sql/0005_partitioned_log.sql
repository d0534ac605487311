-- The log partitioned by ranges of position (docs/scaling.md, "A partitioned log"), with
-- every guarantee of docs/event-log.md unchanged. A partitioned table's unique indexes
-- must include the partition key, so the three uniqueness rules that do not (event ids,
-- idempotency keys, stream versions) move to side tables that the insert trigger fills
-- under the append lock. They are never archived: an id, a key or a stream version stays
-- taken after the partition that held it is exported and detached (`ledger archive`), and
-- a stream keeps counting from its last version when its first events are no longer in
-- the database.

-- Every event id ever appended.
CREATE TABLE event_ids (
    event_id uuid   NOT NULL,
    position bigint NOT NULL,
    CONSTRAINT event_ids_pkey PRIMARY KEY (event_id)
);
-- Every idempotency key ever appended, with the position that holds it.
CREATE TABLE event_keys (
    idempotency_key text   NOT NULL,
    position        bigint NOT NULL,
    CONSTRAINT event_keys_pkey PRIMARY KEY (idempotency_key)
);
-- Each stream's version (its last event's stream_version) and that event's position.
CREATE TABLE event_streams (
    stream   text   NOT NULL,
    version  bigint NOT NULL,
    position bigint NOT NULL,
    CONSTRAINT event_streams_pkey PRIMARY KEY (stream)
);
-- How many positions a new partition covers. Changing it (as the owner) applies to the
-- partitions created afterwards; existing ones keep their bounds.
CREATE TABLE event_log_settings (
    single         boolean NOT NULL DEFAULT true,
    partition_size bigint  NOT NULL,
    CONSTRAINT event_log_settings_pkey PRIMARY KEY (single),
    CONSTRAINT event_log_settings_single_check CHECK (single),
    CONSTRAINT event_log_settings_partition_size_check CHECK (partition_size >= 100)
);
INSERT INTO event_log_settings (partition_size) VALUES (10000000);

INSERT INTO event_ids SELECT event_id, position FROM events;
INSERT INTO event_keys SELECT idempotency_key, position FROM events WHERE idempotency_key IS NOT NULL;
INSERT INTO event_streams SELECT stream, max(stream_version), max(position) FROM events GROUP BY stream;

-- The unpartitioned table steps aside: it becomes the first partition when it holds
-- events, and is dropped when it holds none.
DROP TRIGGER events_check_append ON events;
DROP TRIGGER events_no_update ON events;
DROP TRIGGER events_no_delete ON events;
DROP TRIGGER events_no_truncate ON events;
DROP FUNCTION event_canonical_bytes(events);
ALTER TABLE events RENAME TO events_1;
ALTER TABLE events_1 DROP CONSTRAINT events_event_id_key;
ALTER TABLE events_1 DROP CONSTRAINT events_stream_version_key;
DROP INDEX events_idempotency_key_idx;
ALTER INDEX events_pkey RENAME TO events_1_pkey;
ALTER INDEX events_corrects_position_idx RENAME TO events_1_corrects_position_idx;
ALTER INDEX events_set_aside_idx RENAME TO events_1_set_aside_idx;

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
    CONSTRAINT events_position_check CHECK (position > 0),
    CONSTRAINT events_stream_version_check CHECK (stream_version > 0),
    CONSTRAINT events_stream_check CHECK (stream ~ '^[A-Za-z0-9][A-Za-z0-9._:@+=-]*$' AND length(stream) <= 200),
    CONSTRAINT events_type_check CHECK (type ~ '^[A-Za-z0-9][A-Za-z0-9._:-]*$' AND length(type) <= 100),
    CONSTRAINT events_idempotency_key_check CHECK (idempotency_key ~ '^[\x21-\x7e]+$' AND length(idempotency_key) <= 200),
    CONSTRAINT events_request_hash_check CHECK ((idempotency_key IS NULL) = (request_hash IS NULL)),
    CONSTRAINT events_corrects_earlier_check CHECK (corrects_position > 0 AND corrects_position < position),
    CONSTRAINT events_data_object_check CHECK (jsonb_typeof(data) = 'object'),
    CONSTRAINT events_metadata_object_check CHECK (jsonb_typeof(metadata) = 'object'),
    CONSTRAINT events_hash_length_check CHECK (octet_length(hash) = 32 AND octet_length(prev_hash) = 32)
) PARTITION BY RANGE (position);

-- A stream's events in version order (reads of a stream, timelines). Not unique: the
-- uniqueness of (stream, stream_version) is the trigger's, through event_streams.
CREATE INDEX events_stream_version_idx ON events (stream, stream_version);
CREATE INDEX events_corrects_position_idx ON events (corrects_position) WHERE corrects_position IS NOT NULL;
CREATE INDEX events_set_aside_idx ON events (position) WHERE type = 'projection.event_set_aside';

COMMENT ON TABLE events IS 'Append-only event log, partitioned by ranges of position. position is gapless and commit-ordered; hash = sha256(prev_hash || event_canonical_bytes(row)). See docs/audit.md and docs/scaling.md.';

-- The bytes each event's hash covers (as in 0001, for the new table's row type).
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

-- Row-level triggers on the partitioned table are cloned onto every partition, present and
-- future, so an UPDATE or DELETE is refused whether it names `events` or a partition.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events FOR EACH ROW EXECUTE FUNCTION events_reject_change();
CREATE TRIGGER events_no_delete BEFORE DELETE ON events FOR EACH ROW EXECUTE FUNCTION events_reject_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events FOR EACH STATEMENT EXECUTE FUNCTION events_reject_change();

-- Statement-level triggers are not cloned, and those of `events` do not fire for a
-- statement that names a partition: each partition refuses such statements itself. An
-- INSERT through `events` fires the partitioned table's triggers only, so the check below
-- sees every append.
CREATE FUNCTION events_reject_partition_statement() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the event log''s partitions are written through events only: % on % is not allowed', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END $$;

CREATE FUNCTION events_guard_partition(partition regclass) RETURNS void
LANGUAGE plpgsql SET search_path = public, pg_temp AS $$
BEGIN
    EXECUTE format('CREATE TRIGGER events_partition_no_insert BEFORE INSERT ON %s FOR EACH STATEMENT EXECUTE FUNCTION events_reject_partition_statement()', partition);
    EXECUTE format('CREATE TRIGGER events_partition_no_truncate BEFORE TRUNCATE ON %s FOR EACH STATEMENT EXECUTE FUNCTION events_reject_partition_statement()', partition);
END $$;
REVOKE ALL ON FUNCTION events_guard_partition(regclass) FROM PUBLIC;

-- The partitions attached to `events`, from their bounds (the catalog is the one record).
CREATE VIEW event_log_partitions AS
SELECT c.relname::text AS name, b.m[1]::bigint AS first_position, b.m[2]::bigint - 1 AS last_position
FROM pg_inherits i
JOIN pg_class c ON c.oid = i.inhrelid
CROSS JOIN LATERAL (SELECT regexp_match(pg_get_expr(c.relpartbound, c.oid), 'FROM \(''?(\d+)''?\) TO \(''?(\d+)''?\)') AS m) b
WHERE i.inhparent = 'public.events'::regclass;

-- Makes sure a partition exists for every position up to `through`, and one more, empty,
-- beyond it: partitions are created ahead of need, never by an insert that finds none.
-- Returns the first position of the last partition; the appender calls again once the
-- head may reach it. A new partition is made apart and then attached, which locks
-- `events` only in SHARE UPDATE EXCLUSIVE mode: reads and appends go on meanwhile. Its
-- bound is stated as a CHECK first, so that attaching does not scan it.
CREATE FUNCTION events_ensure_partitions(through bigint) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    size bigint; next_first bigint; last_first bigint; name text;
BEGIN
    PERFORM pg_advisory_xact_lock(1279607879, 6);
    SELECT partition_size INTO size FROM event_log_settings;
    LOOP
        SELECT max(last_position) + 1, max(first_position) INTO next_first, last_first FROM event_log_partitions;
        IF last_first > through THEN RETURN last_first; END IF;
        next_first := coalesce(next_first, 1);
        name := 'events_' || next_first;
        EXECUTE format('CREATE TABLE %I (LIKE events INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name);
        EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (position >= %s AND position < %s)',
                       name, name || '_bound', next_first, next_first + size);
        PERFORM events_guard_partition(name::regclass);
        EXECUTE format('ALTER TABLE events ATTACH PARTITION %I FOR VALUES FROM (%s) TO (%s)', name, next_first, next_first + size);
        EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', name, name || '_bound');
    END LOOP;
END $$;
REVOKE ALL ON FUNCTION events_ensure_partitions(bigint) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION events_ensure_partitions(bigint) TO ledger_service;

-- The old table, when it holds events, is the first partition, up to its head.
DO $$
DECLARE
    head bigint;
BEGIN
    SELECT max(position) INTO head FROM events_1;
    IF head IS NULL THEN
        DROP TABLE events_1;
    ELSE
        PERFORM events_guard_partition('events_1'::regclass);
        EXECUTE format('ALTER TABLE events ATTACH PARTITION events_1 FOR VALUES FROM (1) TO (%s)', head + 1);
    END IF;
END $$;

-- The insert trigger (0004's checks, for the partitioned table): lock held, gapless from
-- the head, linked chain, dense stream versions; then the side tables, whose primary keys
-- make event ids and idempotency keys unique across every partition, archived or not.
-- SECURITY DEFINER: the service's role may read the side tables but not write them.
CREATE OR REPLACE FUNCTION events_check_append() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
SET plan_cache_mode = force_custom_plan
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
AS $$
DECLARE
    lo bigint; hi bigint; n bigint; below bigint; top bigint; bad bigint; link bytea;
BEGIN
    SELECT min(position), max(position), count(*) INTO lo, hi, n FROM inserted;
    IF n = 0 THEN RETURN NULL; END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()
                   AND classid = 1279607879 AND objid = 1 AND objsubid = 2 AND granted) THEN
        RAISE EXCEPTION 'events may only be appended while holding the append lock'
            USING ERRCODE = 'object_not_in_prerequisite_state';
    END IF;
    -- Positions are unique (the primary key; a position's partition is fixed by its
    -- value), so n rows from lo to hi with the event below lo at lo - 1 and none above hi
    -- are exactly the positions after the old head.
    SELECT coalesce(max(position), 0) INTO below FROM events WHERE position < lo;
    SELECT max(position) INTO top FROM events;
    IF hi - lo + 1 <> n OR lo <> below + 1 OR top <> hi THEN
        RAISE EXCEPTION 'append of positions % to % leaves a gap after %', lo, hi, below
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    SELECT coalesce((SELECT e.hash FROM events e WHERE e.position = below),
                    '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea) INTO link;
    SELECT x.position INTO bad FROM (
        SELECT i.position, i.prev_hash, lag(i.hash, 1, link) OVER (ORDER BY i.position) AS expected
        FROM inserted i
    ) x WHERE x.prev_hash <> x.expected ORDER BY x.position LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'event % does not link to the hash of event %', bad, bad - 1
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    -- Within the append each event of a stream follows the one before it; the append's
    -- first event of a stream follows the stream's version (a probe of event_streams).
    -- Dense and unique at once: a version taken already is not the next one.
    SELECT x.position INTO bad FROM (
        SELECT i.position, i.stream, i.stream_version,
               lag(i.stream_version) OVER (PARTITION BY i.stream ORDER BY i.stream_version) AS previous
        FROM inserted i
    ) x
    WHERE CASE
        WHEN x.previous IS NOT NULL THEN x.previous <> x.stream_version - 1
        ELSE x.stream_version <> coalesce((SELECT s.version FROM event_streams s WHERE s.stream = x.stream), 0) + 1
    END
    ORDER BY x.position LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'event % does not take the next version of its stream', bad
            USING ERRCODE = 'unique_violation', CONSTRAINT = 'event_streams_version';
    END IF;
    INSERT INTO event_streams AS s (stream, version, position)
        SELECT i.stream, max(i.stream_version), max(i.position) FROM inserted i GROUP BY i.stream
    ON CONFLICT (stream) DO UPDATE SET version = excluded.version, position = excluded.position;
    INSERT INTO event_ids (event_id, position) SELECT i.event_id, i.position FROM inserted i;
    INSERT INTO event_keys (idempotency_key, position)
        SELECT i.idempotency_key, i.position FROM inserted i WHERE i.idempotency_key IS NOT NULL;
    RETURN NULL;
END $$;

CREATE TRIGGER events_check_append AFTER INSERT ON events
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION events_check_append();

-- The side tables are as immutable as the log, but for a stream's version, which only
-- the insert trigger moves on.
CREATE TRIGGER event_ids_no_update BEFORE UPDATE ON event_ids FOR EACH ROW EXECUTE FUNCTION events_reject_change();
CREATE TRIGGER event_ids_no_delete BEFORE DELETE ON event_ids FOR EACH ROW EXECUTE FUNCTION events_reject_change();
CREATE TRIGGER event_ids_no_truncate BEFORE TRUNCATE ON event_ids FOR EACH STATEMENT EXECUTE FUNCTION events_reject_change();
CREATE TRIGGER event_keys_no_update BEFORE UPDATE ON event_keys FOR EACH ROW EXECUTE FUNCTION events_reject_change();
CREATE TRIGGER event_keys_no_delete BEFORE DELETE ON event_keys FOR EACH ROW EXECUTE FUNCTION events_reject_change();
CREATE TRIGGER event_keys_no_truncate BEFORE TRUNCATE ON event_keys FOR EACH STATEMENT EXECUTE FUNCTION events_reject_change();
CREATE TRIGGER event_streams_no_delete BEFORE DELETE ON event_streams FOR EACH ROW EXECUTE FUNCTION events_reject_change();
CREATE TRIGGER event_streams_no_truncate BEFORE TRUNCATE ON event_streams FOR EACH STATEMENT EXECUTE FUNCTION events_reject_change();

REVOKE ALL ON events, event_ids, event_keys, event_streams, event_log_settings, event_log_partitions FROM PUBLIC;
GRANT SELECT, INSERT ON events TO ledger_service;
GRANT SELECT ON event_ids, event_keys, event_streams, event_log_settings, event_log_partitions TO ledger_service;
