/// The tables of the billing projection. Balances are kept per account *and pool*: a
/// project that changes funding has one row per pool it was billed to, so that its share
/// of a payer's pool never mixes with its own pool's credits.
///
/// What one event carries is `bigint` (the deciders bound it, `BillingLimits`); what
/// sums events (balances, a month's counters and amounts, an entry posting a month's
/// charge) is `numeric`, which no sequence of accepted events can overflow, so that the
/// fold never stops on an accepted event. Instants that rules compare are microseconds
/// since the Unix epoch.
enum BillingSchema {
    /// Indexes a rebuild builds once, at its end, rather than entry by entry as it folds
    /// (inserting 450,000 entries one by one into the primary key was a tenth of a
    /// replay's time). The journal's primary key, which the reads page by (J1), the fold
    /// never reads through. The entry index it does, to correct an entry posted by an
    /// earlier batch: the first such correction builds it then (`entryIndex`), and the
    /// batches after it keep it up to date. A log with no correction builds it at the end.
    static let deferredIndexes = ["ALTER TABLE journal ADD PRIMARY KEY (account, position, idx)", entryIndex]

    /// The journal's entry index (`entry.corrected` names an entry by its id; the console
    /// and the search find entries by it), if the schema does not have it yet.
    static let entryIndex = "CREATE INDEX IF NOT EXISTS journal_entry_idx ON journal (entry_id)"

    /// One row when the schema being folded lacks the entry index (a rebuild before its
    /// first correction read from the table). Looked up rather than created blindly: a
    /// `CREATE INDEX` that finds the index takes the table's share lock all the same.
    static let entryIndexMissing = """
        SELECT 1 WHERE to_regclass(quote_ident(current_schema()) || '.journal_entry_idx') IS NULL
        """

    static let statements = [
        "CREATE TABLE payers (payer_id text PRIMARY KEY, name text NOT NULL, position bigint NOT NULL)",
        "CREATE TABLE projects (project_id text PRIMARY KEY, name text NOT NULL, position bigint NOT NULL)",
        // Funding history: the pool of a project at an instant is the row with the latest
        // effective time at or before it.
        """
        CREATE TABLE funding (project_id text NOT NULL, effective_us bigint NOT NULL, position bigint NOT NULL,
            pool text NOT NULL, PRIMARY KEY (project_id, effective_us, position))
        """,
        """
        CREATE TABLE pools (pool text PRIMARY KEY, plan text NOT NULL DEFAULT 'none',
            allowance_storage_bytes bigint NOT NULL DEFAULT 0)
        """,
        """
        CREATE TABLE keys (sha256 text PRIMARY KEY, key_id text NOT NULL UNIQUE, principal_kind text NOT NULL,
            principal_id text NOT NULL, prefix text NOT NULL, revoked boolean NOT NULL DEFAULT false, position bigint NOT NULL)
        """,
        """
        CREATE TABLE pricing (singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
            unit_price bigint NOT NULL, storage_price bigint NOT NULL, position bigint NOT NULL)
        """,
        """
        CREATE TABLE journal (account text NOT NULL, position bigint NOT NULL, idx integer NOT NULL,
            entry_id text NOT NULL, kind text NOT NULL, source text, amount numeric NOT NULL, project_id text,
            pool text NOT NULL, month text, hold_id text, corrects text, description text NOT NULL,
            occurred_at timestamptz NOT NULL)
        """,
        """
        CREATE TABLE corrections (entry_id text NOT NULL, correction_id text NOT NULL, account text NOT NULL,
            position bigint NOT NULL, amount bigint NOT NULL, reason text NOT NULL, actor text NOT NULL,
            occurred_at timestamptz NOT NULL, PRIMARY KEY (entry_id, correction_id, account))
        """,
        "CREATE INDEX corrections_account_idx ON corrections (account, position)",
        """
        CREATE TABLE balances (account text NOT NULL, pool text NOT NULL, credit_plan numeric NOT NULL DEFAULT 0,
            credit_purchase numeric NOT NULL DEFAULT 0, credit_grant numeric NOT NULL DEFAULT 0,
            correction numeric NOT NULL DEFAULT 0, usage_posted numeric NOT NULL DEFAULT 0,
            hold_posted numeric NOT NULL DEFAULT 0, hold_held numeric NOT NULL DEFAULT 0, PRIMARY KEY (account, pool))
        """,
        """
        CREATE TABLE holds (hold_id text PRIMARY KEY, project_id text NOT NULL, pool text NOT NULL,
            amount bigint NOT NULL, status text NOT NULL, captured bigint, position bigint NOT NULL)
        """,
        // `status` holds a `MonthStatus` raw value (the fold writes every row's in full);
        // `holds.status` above is a hold's own, another vocabulary.
        """
        CREATE TABLE pool_months (pool text NOT NULL, month text NOT NULL, status text NOT NULL DEFAULT 'open',
            free_used bigint NOT NULL DEFAULT 0, closing_position bigint, closed_position bigint,
            closing_allowance_bytes bigint, closing_storage_price bigint, PRIMARY KEY (pool, month))
        """,
        """
        CREATE TABLE project_months (project_id text NOT NULL, month text NOT NULL, pool text NOT NULL,
            api_requests numeric NOT NULL DEFAULT 0, stream_events numeric NOT NULL DEFAULT 0,
            webhook_deliveries numeric NOT NULL DEFAULT 0, free_units numeric NOT NULL DEFAULT 0,
            billed_units numeric NOT NULL DEFAULT 0, units_amount numeric NOT NULL DEFAULT 0,
            storage_peak bigint NOT NULL DEFAULT 0, bytes_served numeric NOT NULL DEFAULT 0,
            bytes_received numeric NOT NULL DEFAULT 0, PRIMARY KEY (project_id, month, pool))
        """,
        "CREATE INDEX project_months_pool_idx ON project_months (pool, month)",
        """
        CREATE TABLE charges (pool text NOT NULL, month text NOT NULL, project_id text NOT NULL,
            units numeric NOT NULL, free_units numeric NOT NULL, billed_units numeric NOT NULL,
            units_amount numeric NOT NULL, storage_bytes numeric NOT NULL, billed_storage_bytes numeric NOT NULL,
            storage_amount numeric NOT NULL, amount numeric NOT NULL, entry_id text, position bigint NOT NULL,
            PRIMARY KEY (pool, month, project_id))
        """,
        """
        CREATE TABLE late_usage (position bigint PRIMARY KEY, usage_id text NOT NULL, project_id text NOT NULL,
            pool text NOT NULL, month text NOT NULL, meter text NOT NULL, quantity bigint NOT NULL)
        """,
    ]
}
