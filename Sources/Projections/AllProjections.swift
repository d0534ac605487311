import ProjectionEngine

/// Every projection the service maintains, in the order the projector applies them.
public enum AllProjections {
    public static var all: [any Projection] {
        [LogIndexProjection(), BillingProjection(), OrganizationsProjection(), CatalogProjection(), WebCheckoutProjection(), WebhooksProjection(),
         MerkleProjection()]
    }

    public static func named(_ name: String) -> (any Projection)? {
        all.first { $0.name == name }
    }
}
