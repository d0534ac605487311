import Synchronization

/// Where request threads leave appends for the appender: a lock-free stack that any
/// number of threads push onto and one consumer empties at once, oldest first.
///
/// It replaced a `Mutex`-guarded array. On Linux that `Mutex` spins, then
/// waits on a priority-inheritance futex that hands the lock to a sleeping waiter; with
/// 32 submitting threads on two cores, submitters spun on a lock whose new owner was not
/// running, and took 4.9 of 7.6 CPU-seconds of a benchmark run from the appender and
/// PostgreSQL (perf, 2026-12-02). A push here is one compare-and-exchange: a submitter
/// that loses the race retries against the new top at once, and nobody waits for a
/// thread that is not running.
final class SubmissionStack<Element: Sendable>: Sendable {
    private final class Node: @unchecked Sendable {
        // `next` is written only before the node is published by the compare-and-exchange
        // that pushes it, and read only after the exchange that takes it.
        let element: Element
        var next: Unmanaged<Node>?
        init(_ element: Element) { self.element = element }
    }

    private let top = Atomic<Unmanaged<Node>?>(nil)

    init() {}

    deinit { _ = takeAll() }

    /// Pushes `element`; true when the stack was empty, that is when the consumer may be
    /// waiting to be woken.
    func push(_ element: Element) -> Bool {
        let node = Unmanaged.passRetained(Node(element))
        var current = top.load(ordering: .relaxed)
        while true {
            node.takeUnretainedValue().next = current
            let (exchanged, original) = top.compareExchange(expected: current, desired: node,
                                                            successOrdering: .releasing, failureOrdering: .relaxed)
            if exchanged { return current == nil }
            current = original
        }
    }

    /// Everything pushed so far, in the order it was pushed; the stack is empty after.
    func takeAll() -> [Element] {
        guard var node = top.exchange(nil, ordering: .acquiring) else { return [] }
        var elements: [Element] = []
        while true {
            let taken = node.takeRetainedValue()
            elements.append(taken.element)
            guard let next = taken.next else { break }
            node = next
        }
        elements.reverse()
        return elements
    }
}
