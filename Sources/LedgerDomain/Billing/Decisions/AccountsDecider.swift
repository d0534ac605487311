/// Decides the operator acts that shape the billing ledger: payers, projects and their
/// funding, pool plans and keys (docs/billing.md). Each act's uniqueness is the stream's:
/// a payer is `payer-<id>`, a project `project-<id>`, a key `key-<id>`, so a create
/// expects no stream and two concurrent creates cannot both succeed.
public enum AccountsDecider {
    /// The payers, projects and pools a command names, as the projection knows them.
    public struct State: Sendable, Hashable {
        public var payers: Set<String>
        public var projects: Set<String>
        /// Pools that ever funded a project, or were credited or given a plan.
        public var knownPools: Set<Pool>

        public init(payers: Set<String> = [], projects: Set<String> = [], knownPools: Set<Pool> = []) {
            self.payers = payers
            self.projects = projects
            self.knownPools = knownPools
        }
    }

    public struct PlanChoice: Sendable, Hashable {
        public var name: String
        public var allowanceStorageBytes: Int64
        public init(name: String, allowanceStorageBytes: Int64) {
            self.name = name
            self.allowanceStorageBytes = allowanceStorageBytes
        }
    }

    public static func createPayer(id: String, name: String, plan: PlanChoice?) throws(Refusal) -> Decision {
        try checkIdentifier(id, "payer")
        let pool = Pool.payer(id)
        var events = [PendingEvent(PayerCreated(payerID: id, name: name), on: pool.ownerStream)]
        if let plan {
            try check(plan)
            events.append(PendingEvent(PlanSet(pool: pool, plan: plan.name, allowanceStorageBytes: plan.allowanceStorageBytes),
                                       on: pool.ownerStream))
        }
        return Decision(events, expecting: [pool.ownerStream: .noStream])
    }

    public static func createProject(id: String, name: String, funding: Funding, state: State) throws(Refusal) -> Decision {
        try checkIdentifier(id, "project")
        let stream = Pool.project(id).ownerStream
        var expected: [String: ExpectedVersion] = [stream: .noStream]
        if case .payer(let payer) = funding {
            try requirePayer(payer, state)
            expected[Pool.payer(payer).ownerStream] = .streamExists
        }
        return Decision(PendingEvent(ProjectCreated(projectID: id, name: name, funding: funding), on: stream), expecting: expected)
    }

    /// A funding change takes effect at `effectiveAt` (now by default), never before now:
    /// usage is billed to the pool that funded it when it occurred, and that must not
    /// change after the fact.
    public static func fundProject(id: String, funding: Funding, effectiveAt: Timestamp?, now: Timestamp,
                                   state: State) throws(Refusal) -> Decision {
        let effective = effectiveAt ?? now
        guard effective >= now else {
            throw Refusal(.effectiveInPast,
                "--effective-at \(effective.iso8601) is before now (\(now.iso8601)): a funding change may not take effect in the past")
        }
        try requireProject(id, state)
        let stream = Pool.project(id).ownerStream
        var expected: [String: ExpectedVersion] = [stream: .streamExists]
        if case .payer(let payer) = funding {
            try requirePayer(payer, state)
            expected[Pool.payer(payer).ownerStream] = .streamExists
        }
        let event = ProjectFundingChanged(projectID: id, funding: funding, effectiveAt: effective)
        return Decision(PendingEvent(event, on: stream), expecting: expected)
    }

    public static func setPlan(pool: Pool, plan: PlanChoice, state: State) throws(Refusal) -> Decision {
        try requireKnownPool(pool, state)
        try check(plan)
        let event = PlanSet(pool: pool, plan: plan.name, allowanceStorageBytes: plan.allowanceStorageBytes)
        return Decision(PendingEvent(event, on: pool.ownerStream), expecting: [pool.ownerStream: .streamExists])
    }

    /// The stream of a key: its `key.issued`, then at most its `key.revoked`.
    public static func keyStream(_ keyID: String) -> String { "key-" + keyID }

    /// A key for a principal; only the key's SHA-256 and a recognisable prefix are kept.
    public static func issueKey(keyID: String, principal: KeyPrincipal, sha256: String, prefix: String,
                                state: State) throws(Refusal) -> Decision {
        try checkIdentifier(keyID, "key")
        let stream = keyStream(keyID)
        var expected: [String: ExpectedVersion] = [stream: .noStream]
        switch principal.kind {
        case .project:
            try requireProject(principal.id, state)
            expected[Pool.project(principal.id).ownerStream] = .streamExists
        case .payer:
            try requirePayer(principal.id, state)
            expected[Pool.payer(principal.id).ownerStream] = .streamExists
        case .service, .auditor:
            // Services and auditors are named by the operator, recorded nowhere else.
            try checkIdentifier(principal.id, principal.kind.rawValue)
        }
        let event = KeyIssued(keyID: keyID, principal: principal, sha256: sha256, prefix: prefix)
        return Decision(PendingEvent(event, on: stream), expecting: expected)
    }

    /// A key is revoked once: its stream must hold exactly its `key.issued`.
    public static func revokeKey(keyID: String) throws(Refusal) -> Decision {
        try checkIdentifier(keyID, "key")
        let stream = keyStream(keyID)
        return Decision(PendingEvent(KeyRevoked(keyID: keyID), on: stream), expecting: [stream: .exactly(1)])
    }

    // MARK: - Checks

    static func requirePayer(_ id: String, _ state: State) throws(Refusal) {
        guard state.payers.contains(id) else { throw Refusal(.notFound, "payer \(id) does not exist") }
    }

    static func requireProject(_ id: String, _ state: State) throws(Refusal) {
        guard state.projects.contains(id) else { throw Refusal(.notFound, "project \(id) does not exist") }
    }

    /// A pool the ledger knows: its owner exists, and it funded a project or was credited
    /// or given a plan (a funded project has no pool of its own).
    public static func requireKnownPool(_ pool: Pool, _ state: State) throws(Refusal) {
        switch pool {
        case .payer(let id): try requirePayer(id, state)
        case .project(let id):
            try requireProject(id, state)
        }
        guard state.knownPools.contains(pool) else {
            throw Refusal(.notFound, "\(pool) is not a pool: the project has never been self-paying, credited or given a plan")
        }
    }

    static func check(_ plan: PlanChoice) throws(Refusal) {
        guard (0...BillingLimits.maximumAllowanceBytes).contains(plan.allowanceStorageBytes) else {
            throw Refusal(.outOfRange, "a plan's free storage is 0 to \(BillingLimits.maximumAllowanceBytes) bytes, got \(plan.allowanceStorageBytes)")
        }
    }

    static func checkIdentifier(_ id: String, _ what: String) throws(Refusal) {
        guard Identifier.isValid(id) else {
            throw Refusal(.outOfRange, "\(id.debugDescription) is not a valid \(what) id: use 1-64 characters of a-z, 0-9, _ and -, starting with a letter or digit")
        }
    }
}
