import AppStore
import Foundation
import LedgerDomain
import LedgerJSON

/// `ledger appstore sign …`: App Store payloads signed by the development authority that
/// `ledger dev` trusts, to try the transaction and notification endpoints without Apple.
extension AppStoreCommand {
    static let signUsage = """
        usage: ledger appstore sign transaction|notification [options]

        Signs a StoreKit 2 transaction, or a Server Notification V2 carrying one, with the
        development certificate authority kept in LEDGER_DATA_DIR/appstore-test-ca (made on
        first use; `ledger dev` trusts its root outside production). Prints the JWS, or with
        --body the JSON the endpoint takes. Nothing it signs verifies in production.

          --account-token UUID         appAccountToken: the organization's account_token
          --product ID                 default ai.screenrig.plus.monthly
          --environment E              Sandbox (default), Xcode or Production
          --transaction-id ID          default: a new 16-digit ID
          --original-transaction-id ID the subscription (default: the transaction ID)
          --purchased ISO8601          default: now
          --expires ISO8601            default: 30 days after the purchase
          --bundle-id ID               default LEDGER_APPSTORE_BUNDLE_ID
          --type T --subtype S         notification type (default DID_RENEW) and subtype
          --authority DIR              another authority directory
          --body                       print {"signed_transaction": …} or {"signedPayload": …}
        """

    static func sign(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        guard let kind = arguments.first, ["transaction", "notification"].contains(kind) else {
            throw UsageError("sign what? (transaction or notification)")
        }
        let args = try Arguments(Array(arguments.dropFirst()), valued: [
            "account-token", "product", "environment", "transaction-id", "original-transaction-id", "purchased", "expires",
            "bundle-id", "type", "subtype", "authority",
        ], boolean: ["body"])
        guard args.positionals.isEmpty else { throw UsageError("unexpected \(args.positionals[0])") }
        let directory = try args.value("authority") ?? (environment.devDataDirectory() + "/appstore-test-ca")
        let authority = try AppStoreTestAuthority.loadOrCreate(in: directory)
        let signer = AppStoreTestSigner(authority: authority,
                                        bundleID: try args.value("bundle-id") ?? environment.require(.appStoreBundleID))
        let token = try args.value("account-token").map { text in
            guard let uuid = UUID(uuidString: text) else { throw UsageError("--account-token must be a UUID, got \(text)") }
            return uuid
        }
        let environmentName = args.value("environment") ?? AppStoreEnvironmentPolicy.Environment.sandbox
        let purchased = try instant(args, "purchased")
        let transaction = signer.transaction(
            productID: args.value("product") ?? "ai.screenrig.plus.monthly", appAccountToken: token,
            environment: environmentName, signedDate: purchased, transactionID: args.value("transaction-id"),
            originalTransactionID: args.value("original-transaction-id"), purchaseDate: purchased,
            expiresDate: try instant(args, "expires"))
        let jws: String
        let member: String
        if kind == "transaction" {
            jws = transaction
            member = "signed_transaction"
        } else {
            jws = signer.notification(type: args.value("type") ?? "DID_RENEW", subtype: args.value("subtype"),
                                      transaction: transaction, environment: environmentName)
            member = "signedPayload"
        }
        print(args.flag("body") ? JSONValue.object([member: .string(jws)]).compactText() : jws)
        return 0
    }

    private static func instant(_ args: Arguments, _ name: String) throws -> Timestamp? {
        guard let text = args.value(name) else { return nil }
        guard let instant = Timestamp(iso8601: text) else { throw UsageError("--\(name) must be an ISO 8601 instant, got \(text)") }
        return Timestamp(milliseconds: instant.microseconds / 1000)
    }
}
