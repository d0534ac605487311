import Dispatch
import Foundation

/// Runs work on dedicated threads and waits for all of them.
///
/// `DispatchQueue.concurrentPerform` runs at most as many iterations at once as there are
/// cores, so "32 writers" on a 2-core machine would be 2 writers; a benchmark or a
/// concurrency test that means 32 needs 32 threads.
public enum ThreadGroup {
    public static func run(_ count: Int, name: String = "worker", _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            let thread = Thread {
                body(index)
                group.leave()
            }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
        group.wait()
    }
}
