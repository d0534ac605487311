extension Millicredits {
    /// The amount as people read it: credits (1 credit = 1,000 millicredits) with thousands
    /// separators and only the decimals it has, `-1,212.23 credits`, `1 credit`,
    /// `0 credits`. The log, the API and the CSV keep the integer millicredits; this is for
    /// the console's and the command line's eyes, always shown beside the raw value.
    public var creditsText: String {
        let negative = value < 0
        let magnitude = negative ? -value : value
        let whole = magnitude / 1_000
        var fraction = String(Int(magnitude % 1_000))
        while fraction.count < 3 { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let text = Self.grouped(String(whole)) + (fraction.isEmpty ? "" : "." + fraction)
        return (negative ? "-" : "") + text + (magnitude == 1_000 ? " credit" : " credits")
    }

    /// `1234567` → `1,234,567`.
    static func grouped(_ digits: String) -> String {
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }
}

extension Quantity {
    /// A count of bytes as people read it, in binary units as storage is priced (per
    /// GiB-month): `943,718,400 bytes` → `900 MiB`, one decimal where it has one
    /// (`1.5 GiB`), plain bytes under a KiB.
    public var bytesText: String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        let negative = value < 0
        let magnitude = negative ? -value : value
        var unit = 0
        var scale: Int128 = 1
        while unit + 1 < units.count && magnitude >= scale * 1_024 {
            scale *= 1_024
            unit += 1
        }
        let sign = negative ? "-" : ""
        guard unit > 0 else { return sign + Millicredits.grouped(String(magnitude)) + (magnitude == 1 ? " byte" : " bytes") }
        // Tenths, rounded half up.
        let tenths = (magnitude * 10 + scale / 2) / scale
        let text = tenths % 10 == 0 ? Millicredits.grouped(String(tenths / 10)) : Millicredits.grouped(String(tenths / 10)) + "." + String(tenths % 10)
        return sign + text + " " + units[unit]
    }

    /// A count as people read it, with thousands separators: `1,180,213`.
    public var groupedText: String {
        value < 0 ? "-" + Millicredits.grouped(String(-value)) : Millicredits.grouped(String(value))
    }
}
