import HTTP
import LedgerDomain
import Projections

/// U1–U7: a project's or a payer's usage for one UTC month.
enum UsageEndpoint {
    struct Units: Codable, Sendable {
        var apiRequests = Quantity.zero
        var streamEvents = Quantity.zero
        var webhookDeliveries = Quantity.zero
        var counted = Quantity.zero
        var freeLimit = BillingRules.freeUnitsPerMonth
        var freeUsed = Quantity.zero
        var billed = Quantity.zero
        var amount = Millicredits.zero

        enum CodingKeys: String, CodingKey {
            case counted, billed, amount
            case apiRequests = "api_requests", streamEvents = "stream_events", webhookDeliveries = "webhook_deliveries"
            case freeLimit = "free_limit", freeUsed = "free_used"
        }
    }

    struct Storage: Codable, Sendable {
        var peakBytes = Quantity.zero
        var allowanceBytes: Int64 = 0
        var billedBytes = Quantity.zero
        var amount = Millicredits.zero

        enum CodingKeys: String, CodingKey {
            case amount
            case peakBytes = "peak_bytes", allowanceBytes = "allowance_bytes", billedBytes = "billed_bytes"
        }
    }

    struct ProjectLine: Codable, Sendable {
        var projectID: String
        var units: Units
        var storage: Storage
        var bytesServed: Quantity
        var bytesReceived: Quantity
        var amount: Millicredits

        enum CodingKeys: String, CodingKey {
            case units, storage, amount
            case projectID = "project_id", bytesServed = "bytes_served", bytesReceived = "bytes_received"
        }
    }

    /// U6: a project's usage on one pool in the month; a funding change within the month
    /// splits it in two, each counted against its own pool's free limit and closed with it.
    struct Part: Codable, Sendable {
        var payer: AccountRef
        var status: String
        var final: Bool
        var units: Units
        var storage: Storage
        var bytesServed: Quantity
        var bytesReceived: Quantity
        var amount: Millicredits

        enum CodingKeys: String, CodingKey {
            case payer, status, final, units, storage, amount
            case bytesServed = "bytes_served", bytesReceived = "bytes_received"
        }
    }

    struct Response: Codable, Sendable {
        var account: AccountRef
        var payer: AccountRef
        var month: String
        /// `open`, `closing` or `closed`; amounts are final only when closed.
        var status: String
        var final: Bool
        var bytesServed = Quantity.zero
        var bytesReceived = Quantity.zero
        var units = Units()
        var storage = Storage()
        var amount = Millicredits.zero
        /// On a payer's read only: each project of the pool.
        var projects: [ProjectLine]?
        /// On a project's read only: its part on each pool it was billed to in the month,
        /// the pool that funds it now first; the figures above are their sums.
        var parts: [Part]?
        var position: Int64

        enum CodingKeys: String, CodingKey {
            case account, payer, month, status, final, units, storage, amount, projects, parts, position
            case bytesServed = "bytes_served", bytesReceived = "bytes_received"
        }
    }

    static func handle(_ request: HTTPRequest, account: BillingAccount, context: ServiceContext) throws -> HTTPResponse {
        // Waiting comes first: a key issued at the position the read waits for is known after it.
        try ReadYourWrites.wait(request, context: context) { try handle(request, account: account, context: context) }
        let principal = try Authentication.principal(of: request, context: context)
        try Authentication.authorize(principal, toRead: account)
        let now = context.now()
        let month: UTCMonth
        if let text = request.query("month") {
            guard let m = UTCMonth(text) else {
                throw BillingProblems.invalidParameter("month must be a UTC month YYYY-MM, got \(text.debugDescription)")
            }
            month = m
        } else {
            month = UTCMonth(containing: now)
        }
        let response = try BillingReadModel(pool: context.pool).snapshot(now: now) { try Self.response(account, month: month, reader: $0) }
        guard let response else { throw BillingProblems.notFound(account) }
        return .json(response, headers: ["Cache-Control": "no-store"])
    }

    /// The usage of `account` in `month` as the endpoint answers it; nil when there is no
    /// such account. `ledger export usage` writes the same.
    static func response(_ account: BillingAccount, month: UTCMonth, reader: BillingSnapshot) throws -> Response? {
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
    static func projectUsage(_ reader: BillingSnapshot, id: String, month: UTCMonth) throws -> Response? {
        guard let current = try reader.currentPool(ofProject: id) else { return nil }
        let pools = try reader.pools(ofProject: id, month: month)
        var response = Response(account: BillingAccount.project(id).json, payer: payerRef(current), month: month.description,
                                status: "open", final: false, parts: [], position: try reader.position())
        response.units.freeLimit = 0
        for pool in [current] + Set(pools).subtracting([current]).sorted() {
            let pm = try reader.poolMonth(pool, month.description)
            let own: ProjectLine? = try pm.flatMap { (view: BillingSnapshot.PoolMonthView) throws -> ProjectLine? in try line(view, project: id) }
            guard pool == current || own != nil else { continue }
            let status = pm?.status ?? "open"
            var part = Part(payer: payerRef(pool), status: status, final: status == "closed", units: Units(), storage: Storage(),
                            bytesServed: .zero, bytesReceived: .zero, amount: .zero)
            part.storage.allowanceBytes = pm?.allowanceBytes ?? 0
            if let line = own {
                part.units = line.units
                part.storage = line.storage
                part.bytesServed = line.bytesServed
                part.bytesReceived = line.bytesReceived
                part.amount = line.amount
                try add(line, to: &response)
            }
            response.units.freeLimit += BillingRules.freeUnitsPerMonth
            response.parts!.append(part)
        }
        let statuses = response.parts!.map(\.status)
        response.status = statuses.allSatisfy { $0 == "closed" } ? "closed" : (statuses.contains("closing") ? "closing" : "open")
        response.final = response.status == "closed"
        // The allowance is the current pool's: the storage part of a split month is per pool (see `parts`).
        response.storage.allowanceBytes = response.parts!.first!.storage.allowanceBytes
        return response
    }

    /// U7: the payer's read is the pool's: every project, and the pool's own free units.
    static func payerUsage(_ reader: BillingSnapshot, id: String, month: UTCMonth) throws -> Response {
        let pool = Pool.payer(id)
        var response = Response(account: BillingAccount.payer(id).json, payer: payerRef(pool), month: month.description,
                                status: "open", final: false, projects: [], position: try reader.position())
        if let pm = try reader.poolMonth(pool, month.description) {
            response.status = pm.status
            response.final = pm.status == "closed"
            for projectID in Set(pm.meters.keys).union(pm.charges.keys).sorted() {
                guard let line = try line(pm, project: projectID) else { continue }
                response.projects!.append(line)
                try add(line, to: &response)
            }
            response.units.freeUsed = Quantity(pm.freeUsed)
            response.storage.allowanceBytes = pm.allowanceBytes
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
        return ProjectLine(projectID: project, units: units, storage: storage, bytesServed: meters?.bytesServed ?? .zero,
                           bytesReceived: meters?.bytesReceived ?? .zero, amount: charge?.amount ?? .zero)
    }

    static func add(_ line: ProjectLine, to response: inout Response) throws {
        response.bytesServed = try response.bytesServed + line.bytesServed
        response.bytesReceived = try response.bytesReceived + line.bytesReceived
        response.units.apiRequests = try response.units.apiRequests + line.units.apiRequests
        response.units.streamEvents = try response.units.streamEvents + line.units.streamEvents
        response.units.webhookDeliveries = try response.units.webhookDeliveries + line.units.webhookDeliveries
        response.units.counted = try response.units.counted + line.units.counted
        response.units.freeUsed = try response.units.freeUsed + line.units.freeUsed
        response.units.billed = try response.units.billed + line.units.billed
        response.units.amount = try response.units.amount + line.units.amount
        response.storage.peakBytes = try response.storage.peakBytes + line.storage.peakBytes
        response.storage.allowanceBytes = line.storage.allowanceBytes
        response.storage.billedBytes = try response.storage.billedBytes + line.storage.billedBytes
        response.storage.amount = try response.storage.amount + line.storage.amount
        response.amount = try response.amount + line.amount
    }

    static func payerRef(_ pool: Pool) -> AccountRef {
        switch pool {
        case .payer(let id): return AccountRef(kind: "payer", id: id)
        case .project(let id): return AccountRef(kind: "self", id: id)
        }
    }
}
