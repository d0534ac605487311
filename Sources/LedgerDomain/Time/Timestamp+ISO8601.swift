/// The RFC 3339 text form. Output is always `YYYY-MM-DDTHH:MM:SS.ffffffZ`, which is also
/// what the hash chain's SQL formula prints with
/// `to_char(t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.
extension Timestamp {
    public var iso8601: String {
        let c = components
        // Written in place: a projection's batch prints one per journal row it copies.
        return String(unsafeUninitializedCapacity: 27) { out in
            var i = 0
            func put(_ value: Int, _ width: Int, then separator: UInt8) {
                var v = value
                for k in stride(from: i + width - 1, through: i, by: -1) {
                    out[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
                    v /= 10
                }
                out[i + width] = separator
                i += width + 1
            }
            put(c.year, 4, then: UInt8(ascii: "-"))
            put(c.month, 2, then: UInt8(ascii: "-"))
            put(c.day, 2, then: UInt8(ascii: "T"))
            put(c.hour, 2, then: UInt8(ascii: ":"))
            put(c.minute, 2, then: UInt8(ascii: ":"))
            put(c.second, 2, then: UInt8(ascii: "."))
            put(c.microsecond, 6, then: UInt8(ascii: "Z"))
            return i
        }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM)`; fractions beyond microseconds
    /// must be zero rather than silently rounded. `t` and `z` are accepted, as RFC 3339 allows.
    public init?(iso8601 text: String) {
        let b = Array(text.utf8)
        var i = 0
        func number(_ width: Int) -> Int? {
            guard i + width <= b.count else { return nil }
            var v = 0
            for k in i..<(i + width) {
                let d = Int(b[k]) - 48
                guard (0...9).contains(d) else { return nil }
                v = v * 10 + d
            }
            i += width
            return v
        }
        func expect(_ chars: String) -> Bool {
            guard i < b.count, chars.utf8.contains(b[i]) else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              expect("Tt"), let hour = number(2), expect(":"), let minute = number(2), expect(":"),
              let second = number(2) else { return nil }
        var micro = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var digits = 0
            while i < b.count, (48...57).contains(b[i]) {
                let d = Int(b[i]) - 48
                if digits < 6 { micro = micro * 10 + d } else if d != 0 { return nil }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            if digits < 6 { for _ in digits..<6 { micro *= 10 } }
        }
        var offsetSeconds: Int64 = 0
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            let sign: Int64 = b[i] == UInt8(ascii: "+") ? 1 : -1
            i += 1
            guard let oh = number(2), expect(":"), let om = number(2), oh <= 23, om <= 59 else { return nil }
            offsetSeconds = sign * Int64(oh * 3600 + om * 60)
        } else {
            return nil
        }
        guard i == b.count,
              let local = Timestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: second, microsecond: micro)
        else { return nil }
        self.init(microseconds: local.microseconds - offsetSeconds * 1_000_000)
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
