import LedgerDomain

/// What the catalog makes of a publishable key (`CatalogService.authenticate`).
public enum PublishableKeyCheck: Sendable {
    /// A live or test key of an enabled app.
    case valid(app: AppCatalog, mode: KeyMode)
    /// No key has this value (or it is not of a key's form).
    case unknown
    /// The key was revoked.
    case revoked
    /// The key's app is disabled.
    case disabledApp
}
