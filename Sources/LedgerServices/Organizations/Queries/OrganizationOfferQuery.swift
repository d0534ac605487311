import LedgerDomain
import ProjectionEngine
import Projections

/// What a signed-in person may buy for one of their organizations now (O1–O13), with its
/// plan, its subscription and its education eligibility: the App Store surfaces' read.
/// A person who is not a member is answered as for an organization that does not exist.
public struct OrganizationOfferQuery: LedgerQuery {
    public var id: String
    public var person: AppStoreReader
    public var products: AppStoreProducts
    public var schoolDomains: SchoolDomains

    public init(_ id: String, for person: AppStoreReader, products: AppStoreProducts, schoolDomains: SchoolDomains) {
        self.id = id
        self.person = person
        self.products = products
        self.schoolDomains = schoolDomains
    }

    public struct Answer: Sendable {
        public var organization: OrganizationSnapshot
        public var offer: AppStoreOffer
    }

    public var projections: [any Projection] { [OrganizationsProjection()] }
    public var subject: QuerySubject { .organization(id) }

    public func read(_ reads: QueryReads) throws -> Answer? {
        guard let organization = try reads.organizations.snapshot(id), let role = person.role(in: organization) else { return nil }
        let education = EducationEligibility(organization, reader: person, role: role, domains: schoolDomains)
        let offer = AppStoreOffer(organization, reader: person, role: role, education: education, products: products, now: reads.now)
        return Answer(organization: organization, offer: offer)
    }
}
