import HTTP

/// The service's HTTP surface: every route, with its OpenAPI operation.
public enum LedgerAPI {
    public static func router(_ context: ServiceContext) -> Router {
        var router = Router()
        router.errorMapper = DependencyProblems.problem(for:)
        // The catalog surface answers every error in the seed's `Error` shape.
        router.setProblemShape(forPathsUnder: "/v1/iap/", CatalogError.render)
        OperationsEndpoints.register(in: &router, context: context)
        BillingEndpoints.register(in: &router, context: context)
        AppStoreEndpoints.register(in: &router, context: context)
        CatalogEndpoints.register(in: &router, context: context)
        LogEndpoints.register(in: &router, context: context)
        OperationsEndpoints.registerOpenAPI(in: &router)
        return router
    }
}
