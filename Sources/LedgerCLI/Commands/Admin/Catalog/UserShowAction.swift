import Foundation
import LedgerDomain
import LedgerJSON
import LedgerServices

/// `ledger admin user show`: what a user holds now with an app, across StoreKit and the
/// web (`EntitlementsQuery`, the read `GET /v1/iap/entitlements` and the console's user
/// page make), and the web subscriptions the payment processor's facts tell of, ended
/// ones too. Read-only.
struct UserShowAction: AdminAction {
    static let words = ["user", "show"]
    static let synopsis = "--app ID --user USER"
    static let summary = "Show what a user holds now with an app (StoreKit and web), and their web subscriptions."
    static let valued: Set<String> = ["app", "user"]
    static let isOperatorAct = false

    let app: String
    let user: String

    init(_ options: AdminOptions) throws {
        app = try options.identifier("app", "app")
        user = try options.externalID("user", "user")
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        guard let view = try session.answer(EntitlementsQuery(app: app, user: user)) else {
            throw UsageError("app \(app) is not in the catalog (ledger admin app list)")
        }
        var receipt = AdminReceipt()
        receipt.fields["app_id"] = .string(app)
        for (name, value) in view.jsonValue.objectValue ?? [:] { receipt.fields[name] = value }
        receipt.fields["web_subscriptions"] = .array(view.web.subscriptions.map(\.jsonValue))
        receipt.lines = Self.lines(view)
        return receipt
    }

    static func lines(_ view: EntitlementsView) -> [String] {
        func day(_ t: Timestamp?) -> String { t.map { String($0.iso8601.prefix(16)).replacingOccurrences(of: "T", with: " ") } ?? "-" }
        var lines = ["user \(view.userID) with app \(view.appID), as of \(day(view.asOf)) (position \(view.position))", ""]
        if view.entitlements.isEmpty {
            lines.append("holds nothing now")
        } else {
            lines += TextTable.lines(["product", "source", "status", "expires", "renews", "trial", "recorded by", "purchase"],
                                     view.entitlements.map { e in
                [e.productID, e.source.rawValue, e.status, day(e.expiresAt), e.willRenew.map { $0 ? "yes" : "no" } ?? "unknown",
                 e.trial.map { t in t.mode.rawValue + (t.hold.map { ", hold \($0.rawValue)" } ?? "") } ?? "-",
                 e.recordedBy.rawValue, e.purchaseID]
            })
        }
        if !view.web.subscriptions.isEmpty {
            lines += ["", "web subscriptions:"]
            lines += TextTable.lines(["subscription", "product", "status", "stripe", "access ends", "notes"], view.web.subscriptions.map { s in
                let notes = [s.paymentFailed ? "payment failed" : nil, s.disputed ? "disputed" : nil, s.cancelAtPeriodEnd ? "cancels at period end" : nil,
                             s.upfrontPaid.map { "upfront \($0)" }, s.hold.map { "hold \($0.rawValue)" }].compactMap { $0 }
                return [s.subscriptionID, s.productID ?? "-", s.status.rawValue, s.stripeStatus, day(s.accessEndsAt),
                        notes.isEmpty ? "-" : notes.joined(separator: ", ")]
            })
        }
        return lines
    }
}
