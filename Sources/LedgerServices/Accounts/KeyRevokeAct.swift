import LedgerDomain

/// A key is revoked once: `key.revoked` on its stream, which must hold exactly its
/// `key.issued`. The append's expected version is the only check, so two revocations
/// racing cannot both land; the stream's version afterwards says which refusal it was.
public struct KeyRevokeAct: LedgerAct {
    public var keyID: String

    public init(keyID: String) { self.keyID = keyID }

    public func decide(_ reads: ActReads) throws -> Decision {
        try AccountsDecider.revokeKey(keyID: keyID)
    }

    public func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal? {
        guard stream == AccountsDecider.keyStream(keyID) else { return nil }
        return (actualVersion ?? 0) == 0
            ? Refusal(.notFound, "key \(keyID) does not exist")
            : Refusal(.alreadyRevoked, "key \(keyID) is already revoked")
    }
}
