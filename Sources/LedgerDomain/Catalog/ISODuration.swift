/// An ISO 8601 date duration as trials and billing periods use them: `PnY`, `PnM`, `PnW`,
/// `PnD` and their combinations (`P1Y2M`), without a time part.
public struct ISODuration: Sendable, Hashable, CustomStringConvertible {
    public var years = 0, months = 0, weeks = 0, days = 0

    public init?(_ text: String) {
        var rest = Substring(text)
        guard rest.first == "P", rest.count > 1 else { return nil }
        rest = rest.dropFirst()
        var seen = ""
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 4, let value = Int(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            guard let unit = rest.first, "YMWD".contains(unit), !seen.contains(unit) else { return nil }
            // Units in their order: Y before M before W before D.
            if let last = seen.last, "YMWD".firstIndex(of: last)! > "YMWD".firstIndex(of: unit)! { return nil }
            seen.append(unit)
            rest = rest.dropFirst()
            switch unit {
            case "Y": years = value
            case "M": months = value
            case "W": weeks = value
            default: days = value
            }
        }
    }

    public var description: String {
        var out = "P"
        if years > 0 { out += "\(years)Y" }
        if months > 0 { out += "\(months)M" }
        if weeks > 0 { out += "\(weeks)W" }
        if days > 0 { out += "\(days)D" }
        return out == "P" ? "P0D" : out
    }

    /// How many times this period fits in a year (months as twelfths, days as 1/365), or
    /// nil for an empty duration.
    public var perYear: Double? {
        let days = Double(years) * 365 + Double(months) * 365 / 12 + Double(weeks) * 7 + Double(self.days)
        return days > 0 ? 365 / days : nil
    }

    /// The seed's trial `duration` token: `3_days`, `1_week`, `2_weeks`, `1_month`,
    /// `1_year`; whole weeks are written in weeks. Mixed units fall back to days.
    public var token: String {
        func unit(_ n: Int, _ name: String) -> String { "\(n)_\(name)\(n == 1 ? "" : "s")" }
        switch (years, months, weeks, days) {
        case (let y, 0, 0, 0) where y > 0: return unit(y, "year")
        case (0, let m, 0, 0) where m > 0: return unit(m, "month")
        case (0, 0, let w, 0) where w > 0: return unit(w, "week")
        case (0, 0, 0, let d) where d > 0 && d % 7 == 0: return unit(d / 7, "week")
        default:
            return unit(years * 365 + months * 30 + weeks * 7 + days, "day")
        }
    }
}
