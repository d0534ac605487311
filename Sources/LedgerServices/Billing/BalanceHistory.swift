import LedgerDomain
import Projections

/// An account's posted balance over time on the pool that funds it now (the balance's
/// top level), after each UTC day it posted something: a cumulative sum of its journal,
/// read in the same snapshot as the balance, so that the last point is the balance's
/// `posted`. Held and available are not drawn: what was held on a past day (accrued
/// usage, open holds) is not kept per day, and a figure folded again for the picture
/// would be a second formula.
public struct BalanceHistory: Sendable {
    /// The balance after one day's entries.
    public struct Point: Sendable, Equatable {
        /// `YYYY-MM-DD`, UTC.
        public var date: String
        /// What the day's entries posted, summed.
        public var net: Millicredits
        /// Posted after the day.
        public var posted: Millicredits
    }

    /// The pool the figures are on.
    public var pool: Pool
    /// Where the history starts: the window's first instant, or the account's creation
    /// when later.
    public var from: Timestamp
    /// Posted when it starts.
    public var opening: Millicredits
    /// Each day with entries from `from` on, oldest first.
    public var points: [Point]

    /// Posted after the last day: the balance's `posted`.
    public var posted: Millicredits { points.last?.posted ?? opening }

    /// The running balance of `history`.
    public init(pool: Pool, from: Timestamp, history: PostedByDay) throws {
        self.pool = pool
        self.from = from
        opening = history.before
        var running = history.before
        points = try history.days.map { day in
            running = try running + day.net
            return Point(date: day.date, net: day.net, posted: running)
        }
    }

    /// The history of `account` on `pool` from `from`, in `reader`'s snapshot.
    public static func read(_ account: BillingAccount, pool: Pool, from: Timestamp, reader: BillingSnapshot) throws -> BalanceHistory {
        try BalanceHistory(pool: pool, from: from, history: try reader.postedByDay(account.key, pool: pool, since: from))
    }
}
