/// "Did you mean …?" for a mistyped command: the known name nearest to what was typed,
/// when it is near enough to be a typo rather than another word.
enum Suggestion {
    /// The candidate at the smallest edit distance from `typed`, if that distance is at
    /// most a quarter of the longer word (and at least 1): `serv` → `serve`, `verfy` →
    /// `verify`, `payer craete` → `payer create`, but nothing for `deploy`.
    static func nearest(to typed: String, among candidates: [String]) -> String? {
        nearest(candidates.map { (typed, $0) })
    }

    /// The same over pairs of what was typed and what it may stand for, when candidates
    /// are compared with different parts of the input (admin commands of two or three
    /// words).
    static func nearest(_ pairs: [(typed: String, candidate: String)]) -> String? {
        let scored = pairs.map { (pair: $0, distance: distance($0.typed, $0.candidate)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
        let allowed = max(1, max(best.pair.typed.count, best.pair.candidate.count) / 4)
        return best.distance <= allowed ? best.pair.candidate : nil
    }

    /// Edits between two words, over characters: insertions, deletions, substitutions and
    /// transpositions of neighbours (the optimal string alignment distance), since two
    /// swapped letters are the commonest typo.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
