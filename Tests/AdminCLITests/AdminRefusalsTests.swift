import LedgerCLI
import LedgerDomain
import LedgerFixtures
import LedgerJSON
import Testing
import TestSupport

/// A refused command appends nothing. Every refusal code an operator command can
/// meet is provoked once with `ledger admin`: exit status 1, the code in the message,
/// and the log's head where it was.
@Suite("ledger admin: a refusal appends nothing", .bounded)
struct AdminRefusalsTests {
    /// Every code of `Refusal.Code` an operator act can be refused with (the App Store
    /// ones and `invalid_usage_batch` come from HTTP only: see the API's table).
    static let expected: Set<String> = [
        "already_exists", "not_found", "out_of_range", "already_settled", "already_revoked", "exceeds_hold",
        "effective_at_in_past", "month_not_ended", "month_closed",
        "already_disabled", "already_enabled", "not_active", "in_use", "no_web_price", "invalid_purchase", "in_future",
        "not_stopped",
    ]

    @Test("every refusal code of the operator commands, provoked: exit 1, refused with the code, the head unmoved")
    func everyRefusal() throws {
        let f = try AdminFixture()
        defer { f.shutdown() }
        try f.payer("acme")
        try f.project("web", payer: "acme")
        for setup in [
            ["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "1000", "--description", "d"],
            ["hold", "place", "--id", "h1", "--project", "web", "--amount", "100", "--description", "d"],
            ["hold", "place", "--id", "h2", "--project", "web", "--amount", "100", "--description", "d"],
            ["hold", "release", "--id", "h2"],
            ["key", "issue", "--service", "metering", "--key-id", "k1"],
            ["key", "revoke", "--key-id", "k1"],
            ["month", "close", "--pool", "payer:acme", "--month", "2026-10"],
            ["app", "create", "--id", "demo", "--name", "Demo", "--bundle-id", "com.example.demo"],
            ["product", "set", "--app", "demo", "--id", "pro", "--type", "auto_renewable_subscription", "--name", "Pro",
             "--description", "d", "--web-price", "4.99", "--currency", "USD", "--period", "P1M", "--group", "1"],
            ["product", "set", "--app", "demo", "--id", "coins", "--type", "consumable", "--name", "Coins", "--description", "d"],
            ["campaign", "migration", "--app", "demo", "--id", "old", "--product", "pro", "--eligible", "pro", "--discount", "20",
             "--title", "t", "--message", "m"],
            ["campaign", "end", "--app", "demo", "--id", "old"],
            ["campaign", "migration", "--app", "demo", "--id", "spring", "--product", "pro", "--eligible", "pro", "--discount", "20",
             "--title", "t", "--message", "m"],
        ] {
            _ = try f.adminJSON(setup)
        }
        try f.settle()

        let refused: [(String, [String])] = [
            ("already_exists", ["payer", "create", "--id", "acme", "--name", "Acme"]),
            ("not_found", ["credit", "--pool", "payer:ghost", "--source", "grant", "--amount", "5", "--description", "d"]),
            ("out_of_range", ["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "10000000000000000", "--description", "d"]),
            ("already_settled", ["hold", "capture", "--id", "h2"]),
            ("already_revoked", ["key", "revoke", "--key-id", "k1"]),
            ("exceeds_hold", ["hold", "capture", "--id", "h1", "--amount", "500"]),
            ("effective_at_in_past", ["project", "fund", "--id", "web", "--self-paying", "--effective-at", "2020-01-01T00:00:00Z"]),
            ("month_not_ended", ["month", "close", "--pool", "payer:acme", "--month", "2026-11"]),
            ("month_closed", ["month", "close", "--pool", "payer:acme", "--month", "2026-10"]),
            ("not_active", ["campaign", "end", "--app", "demo", "--id", "old"]),
            ("in_use", ["product", "remove", "--app", "demo", "--id", "pro"]),
            ("in_use", ["product", "set", "--app", "demo", "--id", "pro", "--type", "auto_renewable_subscription", "--name", "Pro",
                        "--description", "d", "--period", "P1M", "--group", "1"]),
            ("no_web_price", ["campaign", "upgrade", "--app", "demo", "--id", "up", "--path", "pro:coins:storekit_to_web"]),
            ("invalid_purchase", ["purchase", "record", "--app", "demo", "--user", "u1", "--product", "coins", "--id", "p1",
                                  "--expires", "2026-12-01T00:00:00Z"]),
            ("in_future", ["purchase", "record", "--app", "demo", "--user", "u1", "--product", "coins", "--id", "p2",
                           "--at", "2027-01-01T00:00:00Z"]),
            ("not_stopped", ["event", "set-aside", "--projection", "billing", "--position", "1"]),
            ("already_enabled", ["app", "enable", "--app", "demo"]),
        ]
        var provoked = Set<String>()
        func refuse(_ code: String, _ arguments: [String]) throws {
            let head = try f.head()
            let outcome = f.admin(arguments)
            #expect(outcome.status == 1 && outcome.errors.contains("refused (\(code)):"), "\(arguments.joined(separator: " ")): \(outcome.errors)")
            #expect(try f.head() == head, "\(arguments.joined(separator: " ")) was refused, yet appended")
            provoked.insert(code)
        }
        for (code, arguments) in refused { try refuse(code, arguments) }
        _ = try f.adminJSON(["app", "disable", "--app", "demo"])
        try refuse("already_disabled", ["app", "disable", "--app", "demo"])
        #expect(Self.expected.subtracting(provoked).isEmpty, "not provoked: \(Self.expected.subtracting(provoked).sorted())")
    }
}
