/// The one percentile every benchmark reports: nearest rank, the smallest value with at
/// least `p` of the values at or below it (p50 of 1…100 is 50, p99 is 99), and the median
/// of rounds' ratios (the middle one, or the mean of the two middle ones).
enum Percentile {
    /// The nearest-rank percentile `p` (0 < p ≤ 1) of `sorted`, in ascending order; 0 for
    /// no values.
    static func nearestRank(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((Double(sorted.count) * p).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// The median of `values` in any order; 0 for none.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
