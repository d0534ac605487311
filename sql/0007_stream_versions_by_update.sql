-- Cheaper stream-version checks in the insert trigger (measured in docs/benchmarks.md),
-- every guarantee of docs/event-log.md kept. The append's first event of each stream was
-- checked against `event_streams` by one probe, and the table was then upserted (a second
-- probe, and an insert attempt that conflicts): 9 to 10 µs per stream the append touched,
-- about half of the trigger's time. Now one UPDATE moves each stream that is at the
-- version before the append's first event of it, one INSERT adds the streams the append
-- starts, and the rows they touched are counted: a stream neither touched did not follow
-- its version (3 to 4 µs per stream). Within the append, versions are still checked
-- against each other by one sort. The error a caller meets is unchanged.
--
-- The trigger's statements are now planned once per session and their plans kept
-- (`force_generic_plan`; 0004 planned each anew at every append). Planning a statement on
-- the partitioned `events` costs 0.3 to 1 ms, several times per append: measured with
-- `track_functions`, the trigger took 6.7 µs per event at 1,869 events per append planned
-- anew and 5.6 µs planned once, 10.2 and 7.8 µs at about 800, and 0.71 against 0.33 ms for
-- an append of one event. A kept plan cannot become a scan of the log as the log grows:
-- sequential scans, hash joins and merge joins stay off for the trigger, so every plan it
-- can choose is a probe of an index whatever the sizes it was planned for, and attaching
-- a partition makes PostgreSQL plan again.
CREATE OR REPLACE FUNCTION events_check_append() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
AS $$
DECLARE
    lo bigint; hi bigint; n bigint; below bigint; top bigint; bad bigint; link bytea;
    streams bigint; moved bigint;
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
    -- Within the append each event of a stream follows the one before it.
    SELECT x.position INTO bad FROM (
        SELECT i.position, i.stream_version,
               lag(i.stream_version) OVER (PARTITION BY i.stream ORDER BY i.stream_version) AS previous
        FROM inserted i
    ) x
    WHERE x.previous IS NOT NULL AND x.previous <> x.stream_version - 1
    ORDER BY x.position LIMIT 1;
    -- The append's first event of each stream follows the stream's version: each stream
    -- either is at the version before it (and moves on) or is started by it (version 1,
    -- and absent). Dense and unique at once: a version taken already is not the next one.
    IF bad IS NULL THEN
        WITH b AS (
            SELECT i.stream, min(i.stream_version) AS first, max(i.stream_version) AS last, max(i.position) AS pos
            FROM inserted i GROUP BY i.stream
        ), updated AS (
            UPDATE event_streams s SET version = b.last, position = b.pos
            FROM b WHERE s.stream = b.stream AND s.version = b.first - 1
            RETURNING 1
        ), started AS (
            INSERT INTO event_streams (stream, version, position)
            SELECT b.stream, b.last, b.pos FROM b WHERE b.first = 1
            ON CONFLICT (stream) DO NOTHING
            RETURNING 1
        )
        SELECT (SELECT count(*) FROM b), (SELECT count(*) FROM updated) + (SELECT count(*) FROM started)
        INTO streams, moved;
        IF moved <> streams THEN
            -- Which event: the first of a stream whose version it does not follow.
            -- Streams the statement above moved or started now point into the append.
            SELECT min(x.position) INTO bad FROM (
                SELECT i.stream, min(i.position) AS position, max(i.position) AS last_position,
                       min(i.stream_version) AS first
                FROM inserted i GROUP BY i.stream
            ) x LEFT JOIN event_streams s ON s.stream = x.stream
            WHERE x.first <> coalesce(s.version, 0) + 1 AND s.position IS DISTINCT FROM x.last_position;
            bad := coalesce(bad, lo);
        END IF;
    END IF;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'event % does not take the next version of its stream', bad
            USING ERRCODE = 'unique_violation', CONSTRAINT = 'event_streams_version';
    END IF;
    INSERT INTO event_ids (event_id, position) SELECT i.event_id, i.position FROM inserted i;
    INSERT INTO event_keys (idempotency_key, position)
        SELECT i.idempotency_key, i.position FROM inserted i WHERE i.idempotency_key IS NOT NULL;
    RETURN NULL;
END $$;
