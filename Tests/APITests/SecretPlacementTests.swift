import Foundation
import LedgerCLI
import Observability
import Testing
import TestSupport

/// `ledger serve` holds the API's secrets and no other process's: production refuses the
/// checkpoint key, the projector's login and the webhook key in its environment, and
/// `ledger dev` gives each child only its own (docs/security.md, "Each process its own
/// secrets").
@Suite("Each process its own secrets: production `ledger serve` refuses another process's", .bounded)
struct SecretPlacementTests {
    /// The settings production `ledger serve` refuses, and a word its error must say of
    /// the process that should hold each.
    static let refused: [(name: String, holder: String)] = [
        ("LEDGER_CHECKPOINT_KEY_FILE", "`ledger project`"),
        ("LEDGER_PROJECTOR_DATABASE_URL", "`ledger project` and `ledger replay`"),
        ("LEDGER_WEBHOOK_KEY", "`ledger project`"),
        ("LEDGER_CONSOLE_SECRET", "`ledger console`"),
        ("LEDGER_APPSTORE_API_KEYS", "`ledger project`"),
    ]

    static func logger() -> (Logger, MemoryLogSink) {
        let sink = MemoryLogSink()
        return (Logger(minimumLevel: .debug, sink: sink), sink)
    }

    @Test("the check refuses each secret in production (named, or unset), with the stable code, the variable and its process")
    func productionRefusesEach() throws {
        for (name, holder) in Self.refused {
            for profile in ["production", ""] {
                // DATABASE_URL set: an unset profile is production, whatever cluster a clone holds.
                let environment = LedgerEnvironment(["LEDGER_ENVIRONMENT": profile, "DATABASE_URL": "postgresql://api@db/ledger",
                                                     name: "/somewhere/or/postgresql://x"])
                let (logger, _) = Self.logger()
                let error = try #require(throws: SecretPlacement.HeldByWrongProcess.self) {
                    try SecretPlacement.checkServe(environment, logger: logger)
                }
                #expect(error.code == "secret_held_by_wrong_process")
                #expect(error.secrets.map(\.setting.name) == [name])
                #expect(error.description.hasPrefix("secret_held_by_wrong_process: \(name) "), "\(error)")
                #expect(error.description.contains(holder), "\(error)")
                #expect(!error.description.contains("postgresql://x"), "the value (a password, say) is never repeated")
            }
        }
        // All at once: each is named, in one error.
        let all = LedgerEnvironment(Dictionary(uniqueKeysWithValues: Self.refused.map { ($0.name, "x") })
            .merging(["DATABASE_URL": "postgresql://api@db/ledger"]) { $1 })
        let error = try #require(throws: SecretPlacement.HeldByWrongProcess.self) {
            try SecretPlacement.checkServe(all, logger: Self.logger().0)
        }
        #expect(error.secrets.map(\.setting.name) == Self.refused.map(\.name))
    }

    @Test("the API's own secrets, and empty values, pass in production; development warns instead of refusing")
    func whatPasses() throws {
        let own = LedgerEnvironment(["LEDGER_ENVIRONMENT": "production", "LEDGER_CURSOR_SECRET": String(repeating: "c", count: 32),
                                     "LEDGER_SESSION_SECRET": String(repeating: "s", count: 32), "LEDGER_CONSOLE_SECRET": "",
                                     "DATABASE_URL": "postgresql://api@db/ledger", "LEDGER_PROJECTOR_DATABASE_URL": "", "LEDGER_WEBHOOK_KEY": ""])
        try SecretPlacement.checkServe(own, logger: Self.logger().0)
        let development = LedgerEnvironment(["LEDGER_ENVIRONMENT": "development", "LEDGER_PROJECTOR_DATABASE_URL": "postgresql://p@db/ledger"])
        let (logger, sink) = Self.logger()
        try SecretPlacement.checkServe(development, logger: logger)
        #expect(sink.lines.count == 1)
        #expect(sink.lines.first?.contains(#""code":"secret_held_by_wrong_process""#) == true, "\(sink.lines)")
        #expect(sink.lines.first?.contains("LEDGER_PROJECTOR_DATABASE_URL") == true)
        #expect(sink.lines.first?.contains("postgresql://p@db") == false, "the value is never logged")
    }

    @Test("production `ledger serve` with the checkpoint key or the projector's login exits 1 with the stable code, before it listens")
    func productionServeExits() throws {
        for (name, value) in [("LEDGER_CHECKPOINT_KEY_FILE", "/etc/ledger/checkpoint-key.pem"),
                              ("LEDGER_PROJECTOR_DATABASE_URL", "postgresql://projector:secret@127.0.0.1:9/ledger")] {
            let process = try LedgerBinary.start(["serve"], environment: [
                "LEDGER_ENVIRONMENT": "production", name: value, "DATABASE_URL": "postgresql://api@127.0.0.1:9/ledger",
                "LEDGER_PORT": "0", "LEDGER_METRICS_ADDRESS": "off", "LEDGER_CONSOLE_ADDRESS": "off",
            ])
            #expect(process.wait(timeout: 30) == 1, "\(name): \(process.errors)")
            #expect(process.errors.contains("ledger serve: secret_held_by_wrong_process: \(name)"), "\(process.errors)")
            #expect(process.errors.contains("`ledger project`"), "it names the process that should hold it")
            #expect(!process.errors.contains("listening"), "it never listened")
            #expect(!process.errors.contains("secret@"), "the value is never printed")
        }
    }

    @Test("`ledger dev`'s children: the API gets none of the console's or the projector's secrets, nor they the API's")
    func devChildrenGetTheirOwn() throws {
        // What a developer may have exported, secrets of both processes included.
        let parent = ["PATH": "/usr/bin", "LEDGER_LOG_LEVEL": "debug", "LEDGER_ENVIRONMENT": "development",
                      "DATABASE_URL": "postgresql://owner@db/ledger", "LEDGER_MIGRATION_DATABASE_URL": "postgresql://owner@db/ledger",
                      "LEDGER_PROJECTOR_DATABASE_URL": "postgresql://projector@db/ledger", "LEDGER_CHECKPOINT_KEY_FILE": "/k.pem",
                      "LEDGER_WEBHOOK_KEY": "w", "LEDGER_CURSOR_SECRET": "c", "LEDGER_SESSION_SECRET": "s", "LEDGER_CONSOLE_SECRET": "k"]
        let children = DevChildEnvironments(
            parent: parent,
            api: ["DATABASE_URL": "postgresql://ledger@db/ledger", "LEDGER_CURSOR_SECRET": "c2", "LEDGER_SESSION_SECRET": "s2"],
            console: ["DATABASE_URL": "postgresql://console@db/ledger", "LEDGER_CONSOLE_SECRET": "k2"],
            projector: ["DATABASE_URL": "postgresql://projector@db/ledger", "LEDGER_WEBHOOK_KEY": "w2", "LEDGER_CHECKPOINT_KEY_FILE": "/k2.pem"])
        #expect(SecretPlacement.misplacedForServe(in: LedgerEnvironment(children.api)).isEmpty,
                "the API's environment passes production's check")
        for name in ["LEDGER_PROJECTOR_DATABASE_URL", "LEDGER_CHECKPOINT_KEY_FILE", "LEDGER_WEBHOOK_KEY", "LEDGER_MIGRATION_DATABASE_URL",
                     "LEDGER_CONSOLE_SECRET"] {
            #expect(children.api[name] == nil, "the API holds \(name)")
        }
        for name in ["LEDGER_PROJECTOR_DATABASE_URL", "LEDGER_CHECKPOINT_KEY_FILE", "LEDGER_WEBHOOK_KEY", "LEDGER_MIGRATION_DATABASE_URL",
                     "LEDGER_CURSOR_SECRET", "LEDGER_SESSION_SECRET"] {
            #expect(children.console[name] == nil, "the console holds \(name)")
        }
        #expect(children.console["DATABASE_URL"] == "postgresql://console@db/ledger" && children.console["LEDGER_CONSOLE_SECRET"] == "k2")
        for name in ["LEDGER_CURSOR_SECRET", "LEDGER_SESSION_SECRET", "LEDGER_CONSOLE_SECRET", "LEDGER_MIGRATION_DATABASE_URL"] {
            #expect(children.projector[name] == nil, "the projector holds \(name)")
        }
        #expect(children.api["DATABASE_URL"] == "postgresql://ledger@db/ledger")
        #expect(children.projector["DATABASE_URL"] == "postgresql://projector@db/ledger")
        #expect(children.api["LEDGER_CURSOR_SECRET"] == "c2" && children.projector["LEDGER_WEBHOOK_KEY"] == "w2")
        #expect(children.projector["LEDGER_CHECKPOINT_KEY_FILE"] == "/k2.pem")
        // What is no secret reaches all three.
        for environment in [children.api, children.console, children.projector] {
            #expect(environment["PATH"] == "/usr/bin" && environment["LEDGER_LOG_LEVEL"] == "debug"
                    && environment["LEDGER_ENVIRONMENT"] == "development")
        }
    }
}
