import Foundation

/// `ledger audit …`: what auditors read about operator acts.
public enum AuditCommand: LedgerCommand {
    public static let name = "audit"
    public static let summary = "Audit reports: every correction posted to an account, usage recorded after its month closed, and every event set aside for a projection, with who, when and why."

    static let actions: [any AdminAction.Type] = [AuditCorrectionsAction.self, LateUsageAction.self, AuditSetAsidesAction.self,
                                                  AuditCheckpointAction.self, AuditProveAction.self, AuditConsistencyAction.self]

    public static var usage: String {
        """
        \(AdminDispatcher.usage(program: "ledger audit", actions: actions))
        Reads the billing projection after it has reached the log's head (up to 30 s).
        Exit status: 0 done; 1 refused (e.g. no such account); 2 usage error. Uses DATABASE_URL.
        """
    }

    public static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        AdminDispatcher.runAsProcess(program: "ledger audit", actions: actions, arguments: arguments, environment: environment)
    }

    /// Runs `ledger audit ARGUMENTS` in-process.
    public static func execute(_ arguments: [String], environment: [String: String],
                               services: () throws -> AdminServices) -> AdminOutcome {
        AdminDispatcher.execute(program: "ledger audit", actions: actions, arguments: arguments,
                                environment: environment, services: services)
    }
}
