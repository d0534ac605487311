-- The insert trigger's checks, unchanged in what they guarantee (gapless from the head,
-- linked chain, dense stream versions, append lock held), rewritten so that their cost
-- does not grow with the log.
--
-- The trigger of 0001 was planned once per session and kept: a plpgsql statement's plan
-- is generic after five calls, and one chosen while `events` was small stays chosen. Its
-- stream-version check became a hash anti-join over a sequential scan of the whole log,
-- run under the append lock: every append read every event. Now:
--
-- - each statement is planned for the log as it is at each call (`force_custom_plan`),
--   and the planner may not read `events` but through its indexes (no sequential scan,
--   no hash or merge join): every check is a handful of index probes per append;
-- - the chain is checked on the inserted rows themselves (`inserted`, the statement's
--   transition table), linked to the one event below them, instead of reading them back;
-- - within an append, a stream's versions are checked against each other, and only the
--   first event of each stream is looked up in the log, by a probe of the unique index.
--
-- `AppendPlanTests` keeps one appender session from an empty log to 200,000 events and
-- counts the sequential scans of `events`: none.
CREATE OR REPLACE FUNCTION events_check_append() RETURNS trigger
LANGUAGE plpgsql
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
    -- Positions are unique (the primary key), so n rows from lo to hi with the event below
    -- lo at lo - 1 and none above hi are exactly the positions after the old head.
    SELECT coalesce(max(position), 0) INTO below FROM events WHERE position < lo;
    SELECT max(position) INTO top FROM events;
    IF hi - lo + 1 <> n OR lo <> below + 1 OR top <> hi THEN
        RAISE EXCEPTION 'append of positions % to % leaves a gap after %', lo, hi, below
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    -- The first inserted row links to the event below it (or to 32 zero bytes at the start
    -- of the log), every other one to the row before it.
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
    -- (stream, stream_version) is unique, so a stream's versions are dense if each event
    -- follows the one before it in the append, and the append's first event of the stream
    -- follows one already in the log (or is version 1).
    SELECT x.position INTO bad FROM (
        SELECT i.position, i.stream, i.stream_version,
               lag(i.stream_version) OVER (PARTITION BY i.stream ORDER BY i.stream_version) AS previous
        FROM inserted i
    ) x
    WHERE x.stream_version > 1 AND CASE
        WHEN x.previous IS NOT NULL THEN x.previous <> x.stream_version - 1
        -- A scalar subquery, not NOT EXISTS: PostgreSQL may turn an EXISTS into a hashed
        -- subplan, which reads every (stream, version) of the log into a hash table once
        -- per append; a scalar subquery can only be a probe per row.
        ELSE (SELECT e.stream_version FROM events e
              WHERE e.stream = x.stream AND e.stream_version = x.stream_version - 1) IS NULL
    END
    ORDER BY x.position LIMIT 1;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'event % skips a version of its stream', bad
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NULL;
END $$;
