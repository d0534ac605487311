import LedgerJSON

/// The RFC 3339 text form (`RFC3339`): always `YYYY-MM-DDTHH:MM:SS.ffffffZ`, which is
/// also what the hash chain's SQL formula prints.
extension Timestamp {
    public var iso8601: String { RFC3339.text(microsecondsSince1970: microseconds) }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM)`; fractions beyond microseconds
    /// must be zero rather than silently rounded. `t` and `z` are accepted, as RFC 3339
    /// allows. The local date must lie in the years the domain knows (1970 to 9999).
    public init?(iso8601 text: String) {
        guard let f = RFC3339.fields(text, extraDigits: .mustBeZero),
              let local = Timestamp(year: Int(f.year), month: Int(f.month), day: Int(f.day), hour: Int(f.hour),
                                    minute: Int(f.minute), second: Int(f.second), microsecond: Int(f.microsecond))
        else { return nil }
        self.init(microseconds: local.microseconds - f.offsetSeconds * 1_000_000)
    }
}

extension Timestamp {
    /// An RFC 3339 instant, or a day `YYYY-MM-DD` meaning its first instant in UTC: how
    /// filters take a time (`ledger audit corrections --since`, the console's filters).
    public init?(dayOrInstant text: String) {
        if text.count == 10, let day = Timestamp(iso8601: text + "T00:00:00Z") {
            self = day
        } else if let instant = Timestamp(iso8601: text) {
            self = instant
        } else {
            return nil
        }
    }
}
