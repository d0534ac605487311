import LedgerDomain
import Projections

extension UsageView {
    /// The usage of `account` in `month` in `reader`'s snapshot; nil when there is no
    /// such account.
    public static func read(_ account: BillingAccount, month: UTCMonth, reader: BillingSnapshot) throws -> UsageView? {
        guard try reader.exists(account) else { return nil }
        switch account {
        case .payer(let id): return try payerUsage(reader, id: id, month: month)
        case .project(let id): return try projectUsage(reader, id: id, month: month)
        }
    }

    /// U5, U6: a project reads its own part of each pool it was billed to in the month
    /// (one, unless its funding changed during the month); `payer` names its payer now.
    /// Each part has its pool's free limit, so the top level's `free_limit` is theirs
    /// added up: a month split between two pools had up to 10,000 free units in each.
    static func projectUsage(_ reader: BillingSnapshot, id: String, month: UTCMonth) throws -> UsageView? {
        guard let current = try reader.currentPool(ofProject: id) else { return nil }
        let pools = try reader.pools(ofProject: id, month: month)
        var response = UsageView(account: BillingAccount.project(id).json, payer: payerRef(current), month: month.description,
                                status: .open, final: false, parts: [], position: try reader.position())
        response.figures.units.freeLimit = 0
        for pool in [current] + Set(pools).subtracting([current]).sorted() {
            let pm = try reader.poolMonth(pool, month.description)
            let own: ProjectLine? = try pm.flatMap { (view: BillingSnapshot.PoolMonthView) throws -> ProjectLine? in try line(view, project: id) }
            guard pool == current || own != nil else { continue }
            let status = pm?.status ?? .open   // no usage on the pool yet: an open month
            var part = Part(payer: payerRef(pool), status: status, final: status.isFinal, figures: own?.figures ?? Figures())
            if own == nil { part.figures.storage.allowanceBytes = pm?.allowanceBytes ?? 0 }
            try response.figures.add(part.figures)
            response.figures.units.freeLimit += BillingRules.freeUnitsPerMonth
            response.parts!.append(part)
        }
        // A split month is closed once every part is, closing while any part is.
        let statuses = response.parts!.map(\.status)
        response.status = statuses.allSatisfy { $0 == .closed } ? .closed : (statuses.contains(.closing) ? .closing : .open)
        response.final = response.status.isFinal
        // The allowance is the current pool's: the storage part of a split month is per pool (see `parts`).
        response.figures.storage.allowanceBytes = response.parts!.first!.figures.storage.allowanceBytes
        return response
    }

    /// U7: the payer's read is the pool's: every project, and the pool's own free units.
    static func payerUsage(_ reader: BillingSnapshot, id: String, month: UTCMonth) throws -> UsageView {
        let pool = Pool.payer(id)
        var response = UsageView(account: BillingAccount.payer(id).json, payer: payerRef(pool), month: month.description,
                                status: .open, final: false, projects: [], position: try reader.position())
        if let pm = try reader.poolMonth(pool, month.description) {
            response.status = pm.status
            response.final = pm.status.isFinal
            for projectID in Set(pm.meters.keys).union(pm.charges.keys).sorted() {
                guard let line = try line(pm, project: projectID) else { continue }
                response.projects!.append(line)
                try response.figures.add(line.figures)
            }
            response.figures.units.freeUsed = Quantity(pm.freeUsed)
            response.figures.storage.allowanceBytes = pm.allowanceBytes
        }
        return response
    }

    static func line(_ pm: BillingSnapshot.PoolMonthView, project: String) throws -> ProjectLine? {
        let meters = pm.meters[project]
        guard meters != nil || pm.charges[project] != nil else { return nil }
        let charge = pm.charges[project]
        var units = Units()
        units.apiRequests = meters?.apiRequests ?? .zero
        units.streamEvents = meters?.streamEvents ?? .zero
        units.webhookDeliveries = meters?.webhookDeliveries ?? .zero
        units.counted = try charge?.units ?? (units.apiRequests + units.streamEvents + units.webhookDeliveries)
        units.freeUsed = charge?.freeUnits ?? .zero
        units.billed = charge?.billedUnits ?? .zero
        units.amount = charge?.unitsAmount ?? .zero
        let storage = Storage(peakBytes: charge?.storageBytes ?? .zero, allowanceBytes: pm.allowanceBytes,
                              billedBytes: charge?.billedStorageBytes ?? .zero, amount: charge?.storageAmount ?? .zero)
        return ProjectLine(projectID: project, figures: Figures(units: units, storage: storage, bytesServed: meters?.bytesServed ?? .zero,
                                                                bytesReceived: meters?.bytesReceived ?? .zero, amount: charge?.amount ?? .zero))
    }

    static func payerRef(_ pool: Pool) -> AccountRef {
        switch pool {
        case .payer(let id): return AccountRef(kind: "payer", id: id)
        case .project(let id): return AccountRef(kind: "self", id: id)
        }
    }
}

extension UsageView {
    /// An open month with nothing counted, stored or charged: a month the account had no
    /// usage in.
    public var isEmpty: Bool {
        let f = figures
        return status == .open && f.units.apiRequests == .zero && f.units.streamEvents == .zero && f.units.webhookDeliveries == .zero
            && f.storage.peakBytes == .zero && f.amount == .zero
    }
}
