import HTTP

/// The service's HTTP surface: every route, with its OpenAPI operation.
public enum LedgerAPI {
    public static func router(_ context: ServiceContext) -> Router {
        var router = Router()
        OperationsEndpoints.register(in: &router, context: context)
        BillingEndpoints.register(in: &router, context: context)
        AppStoreEndpoints.register(in: &router, context: context)
        CatalogEndpoints.register(in: &router, context: context)
        OperationsEndpoints.registerOpenAPI(in: &router)
        return router
    }
}
