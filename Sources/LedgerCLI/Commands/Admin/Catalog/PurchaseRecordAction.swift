import EventStore
import LedgerDomain

/// `ledger admin purchase record`: `iap.purchase_recorded` with source `web` on
/// `app-<app>-user-<user>`: a web checkout purchase, recorded by an operator (for one the
/// checkout could not report). Idempotent on the app and purchase id: recording the same
/// purchase again appends nothing.
struct PurchaseRecordAction: AdminAction {
    static let words = ["purchase", "record"]
    static let synopsis = "--app ID --user USER --product PRODUCT --id PURCHASE_ID [--original-id ID] [--at INSTANT] [--expires INSTANT] [--trial]"
    static let summary = "Record a web checkout purchase in a user's history with an app (--at defaults to now)."
    static let valued: Set<String> = ["app", "user", "product", "id", "original-id", "at", "expires"]
    static let boolean: Set<String> = ["trial"]

    let app: String
    let user: String
    let productID: String
    let purchaseID: String
    let originalID: String?
    let at: Timestamp?
    let expires: Timestamp?
    let trial: Bool

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
        user = try options.externalID("user", "user")
        productID = try options.catalogID("product", "product")
        purchaseID = try options.externalID("id", "purchase")
        originalID = try options.optionalExternalID("original-id", "purchase")
        at = try options.timestamp("at")
        expires = try options.timestamp("expires")
        trial = options.flag("trial")
        if let at, let expires, expires <= at { throw UsageError("--expires must be after --at") }
    }

    /// Every purchase of the app goes on one stream (user ids stay out of stream names).
    var stream: String { "app-\(app)-purchases" }
    /// One purchase id is recorded once per app and source.
    var idempotencyKey: String { "iap-purchase:\(app):web:\(purchaseID)" }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let history = try AppStream.load(app, session: session)
        guard let product = history.configured[productID] else {
            throw AdminError(.notFound, "product \(productID) was never in the catalog of app \(app)")
        }
        let now = session.now
        let purchasedAt = at ?? now
        guard purchasedAt <= now else { throw AdminError(.inFuture, "--at \(purchasedAt.iso8601) is later than now (\(now.iso8601))") }
        if let expires, expires <= purchasedAt { throw AdminError(.invalidPurchase, "--expires must be after the purchase (\(purchasedAt.iso8601))") }
        try check(product)
        let event = PurchaseRecorded(appID: app, userID: user, source: .web, purchaseID: purchaseID, originalID: originalID ?? purchaseID,
                                     productID: productID, purchasedAt: purchasedAt, expiresAt: expires, trial: trial, environment: nil)
        let appended = try session.append([try session.event(event, on: stream)], expecting: [AppStream.name(app): .streamExists],
                                          idempotencyKey: idempotencyKey) { error in
            guard error.code == .idempotencyConflict else { return nil }
            return AdminError(.alreadyExists, "purchase \(purchaseID) of app \(app) is already recorded, with other details; nothing was appended")
        }
        return AdminReceipt(events: appended)
    }

    /// What the product's type allows: subscriptions end, other products do not, and only
    /// an auto-renewable subscription with a free trial starts with one.
    func check(_ product: CatalogProduct) throws {
        switch product.type {
        case .autoRenewableSubscription, .nonRenewingSubscription:
            guard expires != nil else { throw AdminError(.invalidPurchase, "product \(productID) is a subscription: --expires is required") }
        case .consumable, .nonConsumable:
            guard expires == nil else { throw AdminError(.invalidPurchase, "product \(productID) is a \(product.type.rawValue) product, which does not expire: drop --expires") }
        }
        guard !trial || (product.type == .autoRenewableSubscription && product.freeTrialDuration != nil) else {
            throw AdminError(.invalidPurchase, "product \(productID) has no free trial, so a purchase of it cannot be a trial: drop --trial")
        }
    }
}
