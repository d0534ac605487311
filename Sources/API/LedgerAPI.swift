import HTTP

/// The service's HTTP surfaces: the public one, every route with its OpenAPI operation,
/// and the operations listener's.
public enum LedgerAPI {
    /// The public port's routes.
    public static func router(_ context: ServiceContext) -> Router {
        var router = Router()
        router.errorMapper = DependencyProblems.problem(for:)
        // The catalog surface answers every error in the seed's `Error` shape.
        router.setProblemShape(forPathsUnder: "/v1/iap/", CatalogError.render)
        OperationsEndpoints.register(in: &router, context: context)
        BillingEndpoints.register(in: &router, context: context)
        AppStoreEndpoints.register(in: &router, context: context)
        PromotionalOfferEndpoints.register(in: &router, context: context)
        CatalogEndpoints.register(in: &router, context: context)
        WebCheckoutEndpoints.register(in: &router, context: context)
        LogEndpoints.register(in: &router, context: context)
        ProblemEndpoints.register(in: &router)
        OperationsEndpoints.registerOpenAPI(in: &router)
        return router
    }

    /// The operations listener's routes (`LEDGER_METRICS_ADDRESS`): `/metrics`, and
    /// `/readyz` with positions and replicas; never served on the public port.
    public static func operationsRouter(_ context: ServiceContext) -> Router {
        var router = Router()
        OperatorEndpoints.register(in: &router, context: context)
        return router
    }
}
