import ProjectionEngine
import Projections

/// An app's offer impressions by campaign and variant, with each one's share of its
/// campaign (`ledger admin campaign stats`). Campaigns no longer configured stay counted.
/// nil before the projector has created the catalog projection: there is nothing to read
/// yet, which is not the same as nothing counted.
public struct CampaignImpressionsQuery: LedgerQuery {
    public var app: String

    public init(app: String) { self.app = app }

    public var projections: [any Projection] { [CatalogProjection()] }
    public var subject: QuerySubject { .ledger }

    public func read(_ reads: QueryReads) throws -> [CampaignImpressions]? {
        try CatalogSnapshot.impressions(app: app, connections: reads.connections).map(CampaignImpressions.counted)
    }
}
