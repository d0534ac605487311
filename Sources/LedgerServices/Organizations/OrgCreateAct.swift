import Crypto
import Foundation
import LedgerDomain

/// An organization, with the account token its App Store purchases will carry, on a new
/// stream: `.noStream` makes a second create fail, even a concurrent one.
public struct OrgCreateAct: LedgerAct {
    public var id: String
    public var name: String
    /// Made once by the front end, so that deciding again names the same token.
    public var accountToken: UUID

    public init(id: String, name: String, accountToken: UUID = SecureRandom.uuid()) {
        self.id = id
        self.name = name
        self.accountToken = accountToken
    }

    public func decide(_ reads: ActReads) throws -> Decision {
        try OrganizationDecider.create(id: id, name: name, accountToken: accountToken)
    }

    public func lostRace(on stream: String, actualVersion: Int64?, _ reads: ActReads) throws -> Refusal? {
        stream == OrganizationDecider.stream(id) && (actualVersion ?? 0) > 0 ? Refusal(.alreadyExists, "organization \(id) already exists") : nil
    }
}
