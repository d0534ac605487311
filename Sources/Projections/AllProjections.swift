/// Every projection the service maintains, in the order the projector applies them.
public enum AllProjections {
    public static var all: [any Projection] {
        [LogIndexProjection(), BillingProjection(), OrganizationsProjection(), CatalogProjection(), WebhooksProjection(), MerkleProjection()]
    }

    /// The channel the projector notifies when a projection's checkpoint moves, with the
    /// payload `<name>:<position>`.
    public static let notificationChannel = "ledger_projections"

    public static func named(_ name: String) -> (any Projection)? {
        all.first { $0.name == name }
    }
}
