import LedgerDomain
import LedgerServices

extension ConsoleAct {
    /// Revoking a key, `KeyRevokeAct` as `ledger admin key revoke` runs it.
    static let revokeKey = ConsoleAct(
        name: "key-revoke", title: "Revoke a key",
        fields: [Field(name: "key_id", label: "Key id", hint: "key_…, as `ledger admin key list` shows it")]
    ) { fields, _ in
        KeyRevokeAct(keyID: fields["key_id"] ?? "")
    }

    /// A pool's plan and its free storage (U3), `PlanSetAct` as `ledger admin plan set` runs it.
    static let setPlan = ConsoleAct(
        name: "plan-set", title: "Set a plan",
        fields: [Field(name: "pool", label: "Account", hint: "payer:ID or project:ID"),
                 Field(name: "plan", label: "Plan", hint: "its name, e.g. team"),
                 Field(name: "allowance_storage_bytes", label: "Free storage in bytes", hint: "a non-negative integer")]
    ) { fields, _ in
        guard let pool = Pool(fields["pool"] ?? "") else { throw Console.refusal("The account is payer:ID or project:ID.") }
        let name = fields["plan"] ?? ""
        guard !name.isEmpty, name.utf8.count <= 100 else { throw Console.refusal("The plan's name is required (at most 100 bytes).") }
        guard let allowance = Int64(fields["allowance_storage_bytes"] ?? ""), allowance >= 0 else {
            throw Console.refusal("The free storage is a non-negative integer of bytes.")
        }
        return PlanSetAct(pool: pool, plan: AccountsDecider.PlanChoice(name: name, allowanceStorageBytes: allowance))
    }
}
