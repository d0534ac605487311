import LedgerDomain
import LedgerServices

/// `ledger admin app create`: `app.created` on a new `app-<id>` stream, whose SDKs will
/// read the catalog with the app's publishable keys.
struct AppCreateAction: AdminAction {
    static let words = ["app", "create"]
    static let synopsis = "--id ID --name NAME --bundle-id BUNDLE"
    static let summary = "Create an app of the IAP catalog, with the App Store bundle ID its transactions must name."
    static let valued: Set<String> = ["id", "name", "bundle-id"]

    let id: String
    let name: String
    let bundleID: String

    init(_ options: AdminOptions) throws {
        id = try options.identifier("id", "app")
        name = try options.text("name", maximumLength: 200)
        // Apple's bundle IDs: letters, digits, `.` and `-` (reverse DNS, up to 155 characters).
        let bundle = try options.arguments.require("bundle-id")
        guard (1...155).contains(bundle.utf8.count),
              bundle.utf8.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 46 || $0 == 45 })
        else {
            throw UsageError("--bundle-id \(bundle.debugDescription) is not a bundle ID: use 1-155 characters of A-Z, a-z, 0-9, . and -, such as com.example.app")
        }
        bundleID = bundle
    }

    func perform(_ session: AdminSession) throws -> AdminReceipt {
        AdminReceipt(events: try session.perform(AppCreateAct(id: id, name: name, bundleID: bundleID)))
    }
}
