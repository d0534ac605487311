import EventStore
import Foundation
import HTTP
import LedgerDomain
import LedgerJSON

/// Who may see an organization's App Store offer, and its education eligibility.
enum OrganizationAccess {
    enum Role { case administrator, viewer }

    /// O1: a designated administrator of the active organization; O2: staff, and
    /// administrators of the reseller it is delegated to, may look; nobody else.
    static func role(_ session: SessionToken, in state: OrganizationState) -> Role? {
        if session.activeOrg == state.id && state.admins.contains(session.personID) { return .administrator }
        if session.isStaff { return .viewer }
        if let reseller = session.resellerID, reseller == state.resellerID { return .viewer }
        return nil
    }

    /// O7–O9: staff's decision is final either way; otherwise eligible after an automatic
    /// grant, or now when this administrator has a verified e-mail on a school domain —
    /// in which case the grant to append is returned, to be recorded once.
    static func education(_ state: OrganizationState, _ session: SessionToken, role: Role,
                          domains: SchoolDomains) -> (eligible: Bool, source: String?, grant: EducationEligibilityGranted?) {
        if let decided = state.staffEducation { return (decided, decided ? "staff" : nil, nil) }
        if state.autoEducationDomain != nil { return (true, "school_email", nil) }
        guard role == .administrator, session.emailVerified, let email = session.email,
              let domain = domains.match(email: email) else { return (false, nil, nil) }
        return (true, "school_email", EducationEligibilityGranted(orgID: state.id, domain: domain, personID: session.personID))
    }

    /// Records an automatic grant once: the idempotency key makes a second grant (another
    /// administrator, a concurrent request) a no-op rather than a second audit entry.
    static func record(_ grant: EducationEligibilityGranted, session: SessionToken, request: HTTPRequest,
                       context: ServiceContext) throws {
        let data = try JSONValueEncoder().encode(grant)
        let event = EventToAppend(stream: "org-" + grant.orgID, type: EducationEligibilityGranted.type, data: data,
                                  metadata: EventMetadata(actor: Actor(.person, session.personID), requestID: request.requestID,
                                                          reason: "verified e-mail on a K-12 school domain"))
        do {
            _ = try context.appendAndWait(AppendRequest(events: [event], idempotencyKey: "education-auto:" + grant.orgID))
        } catch where error.code == .idempotencyConflict {
            // Another administrator's grant came first: the organization is eligible already.
        }
    }

    /// The session of a request, or a 401.
    static func session(_ request: HTTPRequest, _ context: ServiceContext, _ settings: AppStoreSettings) throws -> SessionToken {
        guard let session = SessionToken.from(request, secret: settings.sessionSecret, now: context.now().microseconds / 1_000_000) else {
            throw Problem(status: 401, code: "unauthenticated", detail: "sign in: the session cookie is missing, invalid or expired")
        }
        return session
    }
}
