import LedgerDomain

/// What a chart's numbers count, and how people read them: the axis's title, its tick
/// labels, the whole figure with its unit (a bar's tooltip, the table beside the chart),
/// and the steps that make round ticks of it.
public enum ChartUnit: Sendable, Equatable {
    /// Things counted (`requests`, `events`), with thousands separators.
    case count(String)
    /// Millicredits, read in credits (1 credit = 1,000 millicredits) as `creditsText` writes them.
    case credits
    /// Bytes, in binary units as storage is priced (`900 MiB`), as `bytesText` writes them.
    case bytes

    /// The axis's title.
    public var title: String {
        switch self {
        case .count(let name): name
        case .credits: "credits"
        case .bytes: "bytes (binary units)"
        }
    }

    /// A tick's label: the figure without the unit the axis's title names.
    public func tick(_ value: Int128) -> String {
        switch self {
        case .count: Quantity(value).groupedText
        case .credits:
            String(Millicredits(value).creditsText.prefix { $0 != " " })
        case .bytes: Quantity(value).bytesText
        }
    }

    /// The labels of an axis's ticks. Bytes are written in one binary unit for the whole
    /// axis, the largest that writes every tick exactly to a tenth (`0.5 GiB`, `1 GiB`,
    /// `1.5 GiB`; `768 MiB`, `1,024 MiB`, `1,280 MiB` rather than a rounded `1.3 GiB`).
    public func ticks(_ values: [Int128]) -> [String] {
        guard self == .bytes else { return values.map(tick) }
        let names = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        let largest = values.map { $0 < 0 ? -$0 : $0 }.max() ?? 0
        for power in stride(from: names.count, through: 1, by: -1) {
            var scale: Int128 = 1
            for _ in 0..<power { scale *= 1_024 }
            guard largest >= scale, values.allSatisfy({ ($0 * 10) % scale == 0 }) else { continue }
            return values.map { value in
                guard value != 0 else { return "0" }
                let tenths = value * 10 / scale
                let magnitude = tenths < 0 ? -tenths : tenths
                let whole = Quantity(magnitude / 10).groupedText + (magnitude % 10 == 0 ? "" : ".\(magnitude % 10)")
                return (tenths < 0 ? "-" : "") + whole + " " + names[power - 1]
            }
        }
        return values.map { $0 == 0 ? "0" : Quantity($0).bytesText }
    }

    /// The figure with its unit.
    public func text(_ value: Int128) -> String {
        switch self {
        case .count(let name): "\(Quantity(value).groupedText) \(name)"
        case .credits: Millicredits(value).creditsText
        case .bytes: Quantity(value).bytesText
        }
    }

    /// Ticks step by 1, 2 or 5 times a power of ten of the raw unit, or for bytes of
    /// their binary unit (256 MiB, not 268,435,456 bytes).
    var binary: Bool { self == .bytes }

    /// The span an axis shows when every value is the same (nothing, or all zeros): four
    /// round steps of the smallest figure people read (a unit, a credit, a KiB).
    var emptySpan: Int128 {
        switch self {
        case .count: 4
        case .credits: 4_000
        case .bytes: 4_096
        }
    }
}
