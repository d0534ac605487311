import Postgres

/// A projection whose accounts can each be folded again from the few streams that make
/// their rows, apart from the rest of the log, and compared with the live rows: what the
/// drift check does with a sample of them (`DriftSample`, docs/operations.md, "Drift").
///
/// The projection's own fold does the folding (`apply`, into tables of its own in the
/// session's temporary schema); what this protocol adds is which events to fold for an
/// account, and which of its rows to compare. Every read here names the live schema it
/// is given, never another.
public protocol AccountSampling: Projection {
    /// Whether `account` names an account of this projection (`payer:acme`): an account a
    /// previous check found drifted is checked again only if it still does.
    func isAccount(_ account: String) -> Bool

    /// The accounts that the events of the log in (`position` − `window`, `position`]
    /// changed, the most recent first, at most `limit`.
    func recentAccounts(through position: Int64, window: Int64, limit: Int, live: String,
                        on connection: PostgresConnection) throws -> [String]

    /// Up to `limit` accounts of the live projection, chosen at random.
    func randomAccounts(limit: Int, live: String, on connection: PostgresConnection) throws -> [String]

    /// The streams whose events make `account`'s rows: folding only their events, in log
    /// order, writes those rows as folding the whole log does. Found through the live rows
    /// (which streams exist for an account); a tampered row that hides a stream shows as
    /// a difference all the same, since the rows folded again lack what it holds.
    func streams(of account: String, live: String, on connection: PostgresConnection) throws -> [String]

    /// What differs for `accounts` between the live rows (schema `live`) and those folded
    /// again (schema `sample`, which holds the fold of their streams alone), figure by
    /// figure; `rebuilt` is the value folded again.
    func sampleDifferences(accounts: [String], sample: String, live: String,
                           on connection: PostgresConnection) throws -> [AccountDifference]
}
