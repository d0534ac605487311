import EventStore
import LedgerDomain
import Projections

extension ConsoleAct {
    /// Revoking a key, as `ledger admin key revoke` does: `key.revoked` on `key-<id>`,
    /// which must hold exactly its `key.issued`.
    static let revokeKey = ConsoleAct(
        name: "key-revoke", title: "Revoke a key",
        fields: [Field(name: "key_id", label: "Key id", hint: "key_…, as `ledger admin key list` shows it")]
    ) { console, fields in
        let keyID = fields["key_id"] ?? ""
        guard !keyID.isEmpty, keyID.utf8.count <= 100, keyID.utf8.allSatisfy({ (0x21...0x7e).contains($0) }) else {
            throw Console.refusal("The key id is the key_… the key was issued with.")
        }
        switch try console.pool.read({ try EventStore.streamHead("key-" + keyID, on: $0) })?.version {
        case nil: throw Console.refusal("There is no key \(keyID).")
        case 1?: return try AccountsDecider.revokeKey(keyID: keyID)
        default: throw Console.refusal("Key \(keyID) is already revoked.")
        }
    }

    /// A pool's plan and its free storage (U3), as `ledger admin plan set` does it.
    static let setPlan = ConsoleAct(
        name: "plan-set", title: "Set a plan",
        fields: [Field(name: "pool", label: "Account", hint: "payer:ID or project:ID"),
                 Field(name: "plan", label: "Plan", hint: "its name, e.g. team"),
                 Field(name: "allowance_storage_bytes", label: "Free storage in bytes", hint: "a non-negative integer")]
    ) { console, fields in
        guard let pool = Pool(fields["pool"] ?? "") else { throw Console.refusal("The account is payer:ID or project:ID.") }
        let name = fields["plan"] ?? ""
        guard !name.isEmpty, name.utf8.count <= 100 else { throw Console.refusal("The plan's name is required (at most 100 bytes).") }
        guard let allowance = Int64(fields["allowance_storage_bytes"] ?? ""), allowance >= 0 else {
            throw Console.refusal("The free storage is a non-negative integer of bytes.")
        }
        _ = try console.requireBillingCaughtUp(with: pool.ownerStream)
        let model = BillingReadModel(pool: console.pool)
        let state: AccountsDecider.State
        switch pool {
        case .payer(let id): state = try model.accountsState(payers: [id], pools: [pool])
        case .project(let id): state = try model.accountsState(projects: [id], pools: [pool])
        }
        do {
            return try AccountsDecider.setPlan(pool: pool, plan: AccountsDecider.PlanChoice(name: name, allowanceStorageBytes: allowance),
                                               state: state)
        } catch let refusal as Refusal {
            throw Console.refusal(refusal.message)
        }
    }
}
