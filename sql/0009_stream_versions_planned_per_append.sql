-- The stream-version statement of the insert trigger planned at every append
-- (docs/benchmarks.md, "The log's own ceiling, and a plan kept from an empty table").
-- 0007 kept one plan per session for every statement of the trigger. For the statement
-- that moves `event_streams`, the plan kept depends on what the statistics said when the
-- session first ran it: on a table analysed as empty (a new database after `VACUUM
-- ANALYZE`, or `ledger bench`'s rest between measurements) and a first group commit of a
-- thousand events, PostgreSQL joined the append's streams to a full scan of the
-- `event_streams` index, comparing each of its rows with each stream of the append, and
-- kept that plan until the next analyse of the table: 874,125 rows compared and 236 ms to
-- move 875 streams of a table of 1,000 (auto_explain), and more at every group commit as
-- streams are added. `AppendPlanTests` reproduces it. The statement now goes through
-- EXECUTE, planned anew at every append from the table's current size and the append's
-- own row count: about 0.1 ms a group commit, within the noise of 200,000 events loaded in
-- 2,000-event transactions (4.5 to 4.9 s either way; 9.4 to 12.6 s with the kept plan after
-- an analyse of the empty table). So is the query that names the refused event, which runs
-- only when an append is refused. Every other statement of the trigger reads one row of an
-- index by its key, or the transition table, and keeps its plan. Nothing else changes:
-- the checks, their order and the errors a caller meets are 0007's.
CREATE OR REPLACE FUNCTION events_check_append() RETURNS trigger
LANGUAGE plpgsql
SECURITY DEFINER
SET search_path = public, pg_temp
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
SET enable_hashjoin = off
SET enable_mergejoin = off
SET jit = off
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
        EXECUTE $moved$
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
        $moved$ INTO streams, moved;
        IF moved <> streams THEN
            -- Which event: the first of a stream whose version it does not follow.
            -- Streams the statement above moved or started now point into the append.
            EXECUTE $refused$
            SELECT min(x.position) FROM (
                SELECT i.stream, min(i.position) AS position, max(i.position) AS last_position,
                       min(i.stream_version) AS first
                FROM inserted i GROUP BY i.stream
            ) x LEFT JOIN event_streams s ON s.stream = x.stream
            WHERE x.first <> coalesce(s.version, 0) + 1 AND s.position IS DISTINCT FROM x.last_position
            $refused$ INTO bad;
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
