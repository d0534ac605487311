import Foundation
import HTTP
import Postgres

/// DESIGN §3: a write returns the position it reached; a read may ask, with
/// `min_position`, to wait (at most 5 seconds) until the projections have passed it.
enum ReadYourWrites {
    static let maximumWait = 5.0

    static func wait(_ request: HTTPRequest, context: ServiceContext, projection schema: String = "proj_billing") throws {
        guard let text = request.query("min_position") else { return }
        guard let target = Int64(text), target >= 0, String(target) == text else {
            throw BillingProblems.invalidParameter("min_position must be a non-negative integer, got \(text.debugDescription)")
        }
        try waitFor(position: target, context: context, projection: schema)
    }

    /// Waits until `schema`'s projection has applied `target`, at most five seconds.
    static func waitFor(position target: Int64, context: ServiceContext, projection schema: String) throws {
        let deadline = Date().addingTimeInterval(maximumWait)
        while true {
            let reached = try context.pool.read { conn in
                try conn.query("SELECT position FROM \(conn.quoteIdentifier(schema))._checkpoint")[0].requireInt64(0)
            }
            if reached >= target { return }
            if Date() >= deadline {
                var response = HTTPResponse.problem(Problem(status: 503, code: "projection_behind",
                    detail: "the projections have reached position \(reached), not yet \(target); retry shortly"))
                response.headers.replaceOrAdd(name: "Retry-After", value: "1")
                throw HTTPError(response: response)
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}
