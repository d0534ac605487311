import ProjectionEngine

/// What `ledger replay` prints about a rebuild before it swaps: per projection, the
/// tables that change and the accounts whose figures move.
struct ReplayReport {
    let differences: [ProjectionDifferences]

    init(_ differences: [ProjectionDifferences]) { self.differences = differences }

    var text: String {
        var out = ""
        for d in differences {
            guard let live = d.livePosition else {
                out += "\(d.projection): no live projection yet; the rebuild creates it at position \(d.position)\n"
                continue
            }
            if d.isUnchanged {
                out += "\(d.projection): unchanged at position \(d.position)\n"
                continue
            }
            let at = live == d.position ? "at position \(d.position)" : "rebuilt at position \(d.position), live at \(live)"
            out += "\(d.projection): the rebuild changes the projection (\(at))\n"
            for t in d.tables where !t.isUnchanged {
                out += "  table \(t.table): \(t.added) added, \(t.removed) removed, \(t.changed) changed\n"
            }
            if !d.accounts.isEmpty {
                out += "  accounts (live -> rebuilt):\n"
                for a in d.accounts { out += "    \(a.account) \(a.figure): \(a.live) -> \(a.rebuilt)\n" }
            } else if live != d.position {
                out += "  (accounts are compared only at the same position: the live projection is behind)\n"
            }
        }
        return out
    }
}
