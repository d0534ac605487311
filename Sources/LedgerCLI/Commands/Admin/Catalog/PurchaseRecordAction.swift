import LedgerDomain
import LedgerServices

/// `ledger admin purchase record`: `iap.purchase_recorded` with source `web` on
/// `app-<app>-user-<user>`: a web checkout purchase, recorded by an operator (for one the
/// checkout could not report). Idempotent on the app and purchase id: recording the same
/// purchase again appends nothing.
struct PurchaseRecordAction: AdminAction {
    static let words = ["purchase", "record"]
    static let synopsis = "--app ID --user USER --product PRODUCT --id PURCHASE_ID [--original-id ID] [--at INSTANT] [--expires INSTANT] [--trial]"
    static let summary = "Correct a user's history with an app by a web purchase the payment processor never reported (--at defaults to now)."
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

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        let (user, productID, purchaseID, originalID, at, expires, trial) = (user, productID, purchaseID, originalID, at, expires, trial)
        let act = AppChangeAct(app: app, keyTakenRefusal: Refusal(.alreadyExists,
            "purchase \(purchaseID) of app \(app) is already recorded, with other details; nothing was appended")) { state, now in
            try CatalogDecider.recordWebPurchase(user: user, productID: productID, purchaseID: purchaseID, originalID: originalID,
                                                 at: at, expires: expires, trial: trial, now: now, app: state)
        }
        return AdminReceipt(events: try session.perform(act))
    }
}
