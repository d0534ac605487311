import AppStore
import Foundation
import LedgerJSON

/// `ledger appstore verify`: verifies one App Store JWS the way the service does, for
/// operators debugging a refused purchase or notification.
public enum AppStoreCommand: LedgerCommand {
    public static let name = "appstore"
    public static let summary = "Verify an App Store JWS (`ledger appstore verify FILE`), sign a test one for the local service (`ledger appstore sign`), show and run the notification history sync (`ledger appstore sync status|run`), or reconcile subscriptions with Apple's status (`ledger appstore reconcile`)."
    public static let usage = verifyUsage + signUsage + "\n" + syncUsage + "\n" + reconcileUsage

    /// `ledger appstore sign --help` is about signing only, `verify --help` about verifying.
    public static func usage(for arguments: [String]) -> String {
        switch arguments.first {
        case "sign": signUsage
        case "verify": verifyUsage
        case "sync": syncUsage
        case "reconcile": reconcileUsage
        default: usage
        }
    }

    static let verifyUsage = """
        usage: ledger appstore verify FILE [--bundle-id ID] [--environment E] [--production]

        Reads one JWS from FILE (`-`: standard input; surrounding whitespace is ignored): a
        StoreKit 2 signed transaction, signed renewal info or a notification's
        signedPayload, whose nested signedTransactionInfo and signedRenewalInfo are
        verified too. Checks the three base64url parts, alg ES256, the x5c chain to a
        trusted root with Apple's marks, valid at the payload's signedDate, the signature,
        the bundle ID and the environment; not the product or the appAccountToken, which
        need an organization. Prints the decoded payload (nested ones decoded in place) as
        JSON, then `valid` or `invalid: CODE: reason`. Exit 0 only when valid.

          --bundle-id ID     the app the payload must be for (default: LEDGER_APPSTORE_BUNDLE_ID,
                             ai.screenrig.app); renewal info names none
          --environment E    the payload (and nested ones) must name exactly E: Production,
                             Sandbox or Xcode (default: any the policy accepts)
          --production       the production policy: only Apple Root CA - G3, never Xcode

        Trust: Apple Root CA - G3 always; outside production (LEDGER_ENVIRONMENT) also the
        roots in LEDGER_APPSTORE_EXTRA_ROOTS (colon-separated DER or PEM files).

        """

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        guard let sub = arguments.first else { throw UsageError("what to do? (verify, sign, sync or reconcile)") }
        if sub == "sign" { return try sign(arguments: Array(arguments.dropFirst()), environment: environment) }
        if sub == "sync" { return try sync(arguments: Array(arguments.dropFirst()), environment: environment) }
        if sub == "reconcile" { return try reconcile(arguments: Array(arguments.dropFirst()), environment: environment) }
        guard sub == "verify" else { throw UsageError("unknown appstore command \(sub)") }
        let args = try Arguments(Array(arguments.dropFirst()), valued: ["bundle-id", "environment"], boolean: ["production"])
        guard args.positionals.count == 1, let file = args.positionals.first else {
            throw UsageError("verify takes one FILE (or - for standard input)")
        }
        let jws = try readJWS(file)
        let policy = try environment.appStorePolicy(forceProduction: args.flag("production"))
        let bundleID = try args.value("bundle-id") ?? environment.require(.appStoreBundleID)
        let verifier = AppStoreVerifier(policy: policy, bundleID: bundleID)
        if let payload = AppStoreVerifier.unverifiedPayload(of: jws) {
            print(payload.prettyText())
        } else {
            print("(the payload does not decode to JSON)")
        }
        do throws(AppStoreError) {
            _ = try verifier.verifyAny(jws, expectedEnvironment: args.value("environment"))
            print("valid")
            return 0
        } catch {
            print("invalid: \(error.code): \(error.message)")
            if error.code == .untrustedChain && !args.flag("production") {
                // The likely case on a developer's machine: a JWS from `ledger appstore sign`.
                print("hint: a JWS made by `ledger appstore sign` is signed by the development authority `ledger dev` made; "
                      + "trust its root for this check with LEDGER_APPSTORE_EXTRA_ROOTS=.ledger/appstore-test-ca/root.pem (never in production)")
            }
            return 1
        }
    }

    private static func readJWS(_ file: String) throws -> String {
        let data: Data
        if file == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: file) else { throw UsageError("cannot read \(file)") }
            data = contents
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
