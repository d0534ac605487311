-- No JIT compilation on the append path (measured in docs/benchmarks.md). The appender's
-- session and the insert trigger turn sequential scans off, so that no kept plan can
-- become a scan of the log; a statement that must scan anyway (the one-row
-- `event_log_settings`, the catalog behind `event_log_partitions`) is then costed at
-- 10^10 and passes `jit_above_cost`, and PostgreSQL compiles it with LLVM, inlining and
-- optimising, at every execution: 57 ms for `SELECT partition_size FROM
-- event_log_settings` in `events_ensure_partitions`, which the appender calls at its
-- first group commit and whenever the head nears the last partition (measured with
-- auto_explain, 2026-12-02). Every statement these functions run touches a handful of
-- index pages or the rows of one append; compiling never pays for itself there.
ALTER FUNCTION events_check_append() SET jit = off;
ALTER FUNCTION events_ensure_partitions(bigint) SET jit = off;
