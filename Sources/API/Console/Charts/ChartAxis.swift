/// A chart's value axis: the range its numbers are drawn in and the ticks along it. The
/// range always holds zero (a bar starts there, and a balance is read against it), and
/// its ends and ticks are round: multiples of a step of 1, 2 or 5 times a power of ten
/// (of the unit's binary multiple, for bytes), about `steps` of them.
public struct ChartAxis: Sendable, Equatable {
    /// The bottom of the axis: a multiple of `step`, at most zero and the least value.
    public let lower: Int128
    /// The top of the axis: a multiple of `step`, at least zero and the greatest value.
    public let upper: Int128
    /// The distance between two ticks.
    public let step: Int128

    /// The axis for `values` in `unit`, in about `steps` steps.
    public init(_ values: [Int128], unit: ChartUnit, steps: Int = 4) {
        var low = min(0, values.min() ?? 0)
        var high = max(0, values.max() ?? 0)
        if low == high {
            if low < 0 { low -= unit.emptySpan } else { high += unit.emptySpan }
        }
        let wanted = Self.ceilDiv(high - low, Int128(max(1, steps)))
        step = Self.niceStep(atLeast: wanted, binary: unit.binary)
        lower = Self.floorDiv(low, step) * step
        upper = Self.ceilDiv(high, step) * step
    }

    /// Every tick, from `lower` to `upper`.
    public var ticks: [Int128] {
        var out: [Int128] = []
        var tick = lower
        while tick <= upper {
            out.append(tick)
            tick += step
        }
        return out
    }

    /// Where `value` lies on the axis: 0 at `lower`, 1 at `upper`, clamped between them.
    public func fraction(_ value: Int128) -> Double {
        let clamped = min(max(value, lower), upper)
        return Double(clamped - lower) / Double(upper - lower)
    }

    /// The smallest round step at least `wanted`: 1, 2 or 5 times a power of ten, times
    /// a power of 1,024 for bytes.
    static func niceStep(atLeast wanted: Int128, binary: Bool) -> Int128 {
        if binary && wanted > 1 {
            // Counted in the largest power of 1,024 at most `wanted` (MiB for hundreds of
            // MiB); past 500 of it, the next one (1 GiB rather than 1,000 MiB).
            var base: Int128 = 1
            while base <= Int128.max / 1_024 / 1_024 && base * 1_024 <= wanted { base *= 1_024 }
            for m: Int128 in [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_024] where m * base >= wanted { return m * base }
            return base * 1_024
        }
        var magnitude: Int128 = 1
        while true {
            for m: Int128 in [1, 2, 5] where m * magnitude >= wanted { return m * magnitude }
            guard magnitude <= Int128.max / 100 else { return magnitude }
            magnitude *= 10
        }
    }

    static func floorDiv(_ a: Int128, _ b: Int128) -> Int128 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    static func ceilDiv(_ a: Int128, _ b: Int128) -> Int128 { -floorDiv(-a, b) }
}
