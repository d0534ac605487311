import Dispatch
import Foundation
import LedgerServices
import ProjectionEngine
import Synchronization

/// Answers Apple's refund requests on a schedule (docs/appstore.md, "Refund requests"):
/// beside the projector, and only while its process is the active projector, it looks
/// every `interval` seconds for requests not answered yet and hands them to
/// `AppStoreConsumptionResponder`, which decides, sends and records. It only schedules and
/// logs; what it leaves for the next look (Apple's 429 and 5xx, timeouts, the database) is
/// logged, never recorded. The clients are the notification history sync's, which closes them.
public final class AppStoreConsumptionJob: Sendable {
    private let responder: AppStoreConsumptionResponder
    private let log: ProjectorLog
    private let loop: ActiveProjectorLoop

    public init(responder: AppStoreConsumptionResponder, isActive: @escaping @Sendable () -> Bool, interval: Double = 30,
                log: @escaping ProjectorLog) {
        self.responder = responder
        self.log = log
        loop = ActiveProjectorLoop(name: "appstore-consumption", interval: interval, isActive: isActive)
    }

    /// Starts looking on a thread of its own.
    public func start() { loop.start { [self] in tick() } }

    /// Stops after the request in flight.
    public func stop() { loop.stop() }

    /// One look, logged: each answer recorded, and what is left for the next look.
    @discardableResult
    public func tick() -> AppStoreConsumptionResponder.Report? {
        guard loop.mayGoOn else { return nil }
        do {
            let report = try responder.look(shouldStop: { [loop] in !loop.mayGoOn })
            for (uuid, outcome) in report.answered.sorted(by: { $0.key < $1.key }) {
                log(outcome == .sent ? .info : .warning, "app store refund request answered",
                    ["notification_uuid": uuid, "outcome": outcome.rawValue])
            }
            for (uuid, code) in report.retrying.sorted(by: { $0.key < $1.key }) {
                log(.warning, "app store refund request not answered yet", ["notification_uuid": uuid, "code": code,
                                                                              "next": "the next look tries again"])
            }
            return report
        } catch {
            log(.warning, "app store refund requests not read", ["error": "\(error)"])
            return nil
        }
    }
}
