import HTTP
import LedgerDomain
import LedgerServices

/// The signed-in reader of the App Store surfaces, from the session cookie.
enum OrganizationAccess {
    /// The session's reader, or a 401. Claims the log could not store (a control
    /// character in the person's id) make the session invalid, not the request a 500.
    static func reader(_ request: HTTPRequest, _ context: ServiceContext, _ settings: AppStoreSettings) throws -> AppStoreReader {
        try signedIn(request, context, settings).reader
    }

    /// The verified session and its reader, or a 401; for writes, which also check the
    /// session's CSRF value.
    static func signedIn(_ request: HTTPRequest, _ context: ServiceContext,
                         _ settings: AppStoreSettings) throws -> (session: SessionToken, reader: AppStoreReader) {
        guard let session = SessionToken.from(request, secret: settings.sessionSecret, now: context.now().microseconds / 1_000_000),
              session.personID.count <= 200,
              !session.personID.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Problem(status: 401, code: "unauthenticated", detail: "sign in: the session cookie is missing, invalid or expired")
        }
        let reader = AppStoreReader(personID: session.personID, activeOrg: session.activeOrg, email: session.email,
                                    emailVerified: session.emailVerified, isStaff: session.isStaff, resellerID: session.resellerID)
        return (session, reader)
    }

    static func notFound(_ orgID: String) -> Problem {
        Problem(status: 404, code: "not_found", detail: "no organization \(orgID.debugDescription) for this session")
    }
}
