import HTTP
import LedgerServices
import Synchronization

/// An admitted write's place in admission's in-flight count (`AdmissionControl`), given
/// back once, when its append is over.
///
/// The write's body (`AppendDeferral.perform`) does not wait for the append: it submits it
/// and throws an `HTTPDeferral` that the log's answer wakes. The write is over when that
/// answer comes, not when the body returns: counted over at the throw, every append still
/// queued behind the appender would be neither in flight nor in the log's backlog, and
/// admission would let in more than the projection folds within the bound.
final class AdmittedWrite: Sendable {
    private let admission: AdmissionControl
    private let events: Int
    private let projection: String
    private let over = Atomic<Bool>(false)
    private let admitted = ContinuousClock.now

    /// A write `admission` admitted (or, `again`, one that stays in flight for a second
    /// append after its first was answered; see `run`).
    init(_ admission: AdmissionControl, events: Int, projection: String, again: Bool = false) {
        self.admission = admission
        self.events = events
        self.projection = projection
        if again { admission.appendingAgain(events: events, projection: projection) }
    }

    /// Runs `body`. The write is over when `body` answers or fails without deferring, or,
    /// when it defers, as soon as the deferral is woken (the log answered the append),
    /// whatever becomes of the request after (answered, timed out, its client gone).
    func run(_ body: @Sendable () throws -> HTTPResponse) throws -> HTTPResponse {
        do {
            let response = try body()
            end()
            return response
        } catch let deferral as HTTPDeferral {
            throw wrapped(deferral)
        } catch {
            end()
            throw error
        }
    }

    /// `deferral`, over for admission when it is woken. A resumption that defers again (an
    /// act decided again after a race appends a second time) is in flight anew.
    private func wrapped(_ deferral: HTTPDeferral) -> HTTPDeferral {
        let (admission, events, projection) = (admission, events, projection)
        return HTTPDeferral(
            timeout: deferral.timeout,
            start: { [self] wake in
                deferral.start {
                    self.end()
                    wake()
                }
            },
            resume: {
                do {
                    return try deferral.resume()
                } catch let again as HTTPDeferral {
                    throw AdmittedWrite(admission, events: events, projection: projection, again: true).wrapped(again)
                }
            },
            expired: deferral.expired)
    }

    private func end() {
        guard !over.exchange(true, ordering: .acquiringAndReleasing) else { return }
        admission.appended(events: events, projection: projection, took: .now - admitted)
    }
}
