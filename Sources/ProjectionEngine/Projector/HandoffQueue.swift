import Dispatch
import Synchronization

/// A bounded first-in first-out queue between two threads of a rebuild: `put` waits for
/// room, `take` waits for an element. Closing it wakes every waiter: `put` then refuses,
/// `take` hands out what is left and then nil.
final class HandoffQueue<Element: Sendable>: Sendable {
    private struct State: Sendable {
        var elements: [Element] = []
        var closed = false
    }
    private let state = Mutex(State())
    // Both start at 0: libdispatch traps when a semaphore is freed below its initial value,
    // which a queue closed with elements in it would be.
    private let room = DispatchSemaphore(value: 0)
    private let filled = DispatchSemaphore(value: 0)

    init(capacity: Int) {
        for _ in 0..<capacity { room.signal() }
    }

    /// Adds an element once there is room; false (and nothing added) once the queue is closed.
    func put(_ element: Element) -> Bool {
        room.wait()
        let added = state.withLock { s -> Bool in
            guard !s.closed else { return false }
            s.elements.append(element)
            return true
        }
        // A refused put passes the wake-up on, so that every waiter of a closed queue wakes.
        if added { filled.signal() } else { room.signal() }
        return added
    }

    /// The oldest element, waiting for one; nil once the queue is closed and empty.
    func take() -> Element? {
        filled.wait()
        let element = state.withLock { s -> Element? in s.elements.isEmpty ? nil : s.elements.removeFirst() }
        if element != nil { room.signal() } else { filled.signal() }
        return element
    }

    /// Closes the queue (idempotent).
    func close() {
        let first = state.withLock { s -> Bool in
            defer { s.closed = true }
            return !s.closed
        }
        guard first else { return }
        room.signal()
        filled.signal()
    }
}
