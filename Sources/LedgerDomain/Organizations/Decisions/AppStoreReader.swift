/// Who reads an organization's App Store surface: the signed-in person, as their session
/// says (the identity service signs it), and what that makes them of the organization.
public struct AppStoreReader: Sendable, Hashable {
    public enum Role: Sendable, Hashable {
        /// O1: a designated administrator of the active organization.
        case administrator
        /// O2: staff, or an administrator of the reseller the organization is delegated to.
        case viewer
    }

    public var personID: String
    public var activeOrg: String?
    public var email: String?
    public var emailVerified: Bool
    public var isStaff: Bool
    public var resellerID: String?

    public init(personID: String, activeOrg: String?, email: String?, emailVerified: Bool, isStaff: Bool, resellerID: String?) {
        self.personID = personID
        self.activeOrg = activeOrg
        self.email = email
        self.emailVerified = emailVerified
        self.isStaff = isStaff
        self.resellerID = resellerID
    }

    /// O1, O2: the reader's role in `org`, nil for anybody else (who gets a 404, so that
    /// the organization's existence is not revealed).
    public func role(in org: OrganizationSnapshot) -> Role? {
        if activeOrg == org.id && org.admins.contains(personID) { return .administrator }
        if isStaff { return .viewer }
        if let resellerID, resellerID == org.resellerID { return .viewer }
        return nil
    }
}
