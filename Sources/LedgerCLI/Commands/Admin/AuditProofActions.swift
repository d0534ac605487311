import LedgerDomain
import LedgerJSON
import LedgerServices

/// `ledger audit prove`, `ledger audit consistency` and `ledger audit checkpoint`: what
/// the log's transparency routes answer (docs/audit.md), from the command line. `--json`
/// prints the route's body.
struct AuditProveAction: AdminAction {
    static let words = ["prove"]
    static let synopsis = "--position P --size N"
    static let summary = "Prove that the event at position P is in the log's Merkle tree of size N: the audit path, the root and the event."
    static let valued: Set<String> = ["position", "size"]
    static let isOperatorAct = false

    let position: Int64
    let size: Int64

    init(_ options: AdminOptions) throws {
        position = try options.positiveInteger("position")
        size = try options.positiveInteger("size")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        guard let body = try AuditProofs.proving({ try session.answer(InclusionProofQuery(position: position, size: size)) }) else {
            throw AdminError(.notFound, "no proof of position \(position) in the tree of \(size)")
        }
        var receipt = AdminReceipt(fields: try AuditProofs.fields(body))
        receipt.lines = ["event \(position) (leaf \(position - 1)) is in the tree of \(size) events",
                         "root \(body.root)", "leaf \(body.leafHash ?? "(archived event: recompute it from its file)")"]
            + body.path.enumerated().map { "path[\($0.offset)] \($0.element)" }
        if let e = body.event { receipt.lines += ["event \(e.type) on \(e.stream)", "prev_hash \(e.prevHash)", "hash \(e.hash)"] }
        return receipt
    }
}

struct AuditConsistencyAction: AdminAction {
    static let words = ["consistency"]
    static let synopsis = "--from M --to N"
    static let summary = "Prove that the log's tree of M events is the beginning of its tree of N events: both roots and the proof."
    static let valued: Set<String> = ["from", "to"]
    static let isOperatorAct = false

    let from: Int64
    let to: Int64

    init(_ options: AdminOptions) throws {
        from = try options.positiveInteger("from")
        to = try options.positiveInteger("to")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        guard let body = try AuditProofs.proving({ try session.answer(ConsistencyProofQuery(from: from, to: to)) }) else {
            throw AdminError(.notFound, "no proof from the tree of \(from) to the tree of \(to)")
        }
        var receipt = AdminReceipt(fields: try AuditProofs.fields(body))
        receipt.lines = ["the tree of \(from) events is the beginning of the tree of \(to)",
                         "from_root \(body.fromRoot)", "to_root \(body.toRoot)"]
            + body.path.enumerated().map { "path[\($0.offset)] \($0.element)" }
        return receipt
    }
}

struct AuditCheckpointAction: AdminAction {
    static let words = ["checkpoint"]
    static let synopsis = "[--position P]"
    static let summary = "Show the latest signed checkpoint (or the one at position P), its signature checked, and its root against the tree."
    static let valued: Set<String> = ["position"]
    static let isOperatorAct = false

    let position: Int64?

    init(_ options: AdminOptions) throws {
        position = options.has("position") ? try options.positiveInteger("position") : nil
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        guard let checked = try AuditProofs.proving({ try session.answer(CheckpointCheckQuery(position: position)) }) else {
            throw AdminError(.notFound, position.map { "there is no checkpoint at position \($0)" } ?? "no checkpoint has been signed yet")
        }
        let (signed, rootMatches) = (checked.signatureValid, checked.rootMatchesTree)
        var receipt = AdminReceipt(fields: try AuditProofs.fields(checked.body))
        receipt.fields["signature_valid"] = .bool(signed)
        receipt.fields["root_matches_tree"] = .bool(rootMatches)
        receipt.lines = checked.text.split(separator: "\n").map(String.init) + [
            "position \(checked.position), key id \(checked.keyID)",
            "signature: \(signed ? "valid" : "INVALID")",
            "root: \(rootMatches ? "the tree's at that size" : "DIFFERS from the tree's at that size")",
        ]
        guard signed, rootMatches else {
            throw AdminError(.checkpointInvalid, "the checkpoint at position \(checked.position) does not check: signature \(signed ? "valid" : "invalid"), root \(rootMatches ? "matches" : "differs")")
        }
        return receipt
    }
}

enum AuditProofs {
    static func fields(_ body: some Encodable) throws -> [String: JSONValue] {
        try JSONValueEncoder().encode(body).objectValue ?? [:]
    }

    /// A proof's refusals as the commands report them.
    static func proving<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let refusal as ProofRefusal {
            switch refusal {
            case .treeBehind(let detail): throw AdminError(.notFound, detail)
            case .invalid(let what): throw UsageError(what)
            }
        }
    }
}
