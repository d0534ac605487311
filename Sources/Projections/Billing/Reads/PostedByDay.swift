import LedgerDomain

/// What an account posted on one pool, per UTC day of its entries' business time
/// (`occurred_at`), from a first instant on, and the sum of what it posted before: the
/// running balance is their cumulative sum, and the last one is the balance row's
/// `posted` (every posted column moves with an entry of the journal).
public struct PostedByDay: Sendable, Equatable {
    /// One day's entries, summed.
    public struct Day: Sendable, Equatable {
        /// `YYYY-MM-DD`, UTC.
        public var date: String
        public var net: Millicredits

        public init(date: String, net: Millicredits) {
            self.date = date
            self.net = net
        }
    }

    /// Posted before the first instant asked for.
    public var before: Millicredits
    /// The days with entries from that instant on, oldest first.
    public var days: [Day]

    public init(before: Millicredits, days: [Day]) {
        self.before = before
        self.days = days
    }
}
