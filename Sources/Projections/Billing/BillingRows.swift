import LedgerDomain
import Postgres

/// The billing tables' columns that hold a domain value, read back by the fold and by the
/// read model alike, so that each is decoded in one place. A value the fold could not have
/// written is an unexpected result, as a NULL in a `NOT NULL` column would be.
extension PostgresRow {
    /// `pool_months.status`: the fold writes only `MonthStatus` raw values.
    func requireMonthStatus(_ column: Int) throws -> MonthStatus {
        let text = try requireString(column)
        guard let status = MonthStatus(rawValue: text) else {
            throw PostgresError(code: .unexpectedResult, message: "a pool-month's status is \(text.debugDescription)")
        }
        return status
    }

    /// A `funding` row's `effective_us, position, pool`, starting at column `first`: one
    /// change of the project's `FundingHistory`, whose rule alone says which pool funds it
    /// when.
    func requireFundingChange(from first: Int) throws -> FundingHistory.Change {
        let poolText = try requireString(first + 2)
        guard let effective = Timestamp(microseconds: try requireInt64(first)), let pool = Pool(poolText) else {
            throw PostgresError(code: .unexpectedResult,
                                message: "a funding row names \(poolText) at an instant outside 1970-9999")
        }
        return FundingHistory.Change(effective: effective, position: try requireInt64(first + 1), pool: pool)
    }
}
