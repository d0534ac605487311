import Dispatch
import Foundation

/// Frees folded batches on a thread of its own. A rebuild's slowest fold is the last to let
/// go of each batch of events (every projection holds the same events), so without this
/// that thread also freed them: a fifth of its time in a replay of billing alone, on the
/// path that decides how long the rebuild takes (docs/benchmarks.md).
final class BatchReleaser: Sendable {
    private let queue = HandoffQueue<any Sendable>(capacity: 8)
    private let finished = DispatchSemaphore(value: 0)

    init() {
        let thread = Thread { [queue, finished] in
            while queue.take() != nil {}
            finished.signal()
        }
        thread.name = "ledger-release"
        thread.start()
    }

    /// Takes the caller's reference to `batch`: the memory is freed here once every other
    /// reference is gone, or by the caller's thread if the releaser has stopped.
    func release(_ batch: any Sendable) {
        _ = queue.put(batch)
    }

    /// Frees what is queued, then stops the thread (once).
    func finish() {
        queue.close()
        finished.wait()
        finished.signal()
    }
}
