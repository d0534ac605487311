import Foundation
import Synchronization

/// A fixed set of threads that run handlers, fed by a bounded queue that is fair between
/// clients.
///
/// libmicrohttpd's own threads only move bytes; whatever may block (the database) runs
/// here, so that a slow handler delays no other connection. Jobs queue per client and
/// the threads take them round-robin across clients, so a client with a hundred requests
/// queued delays another's next request by at most one job per busy client, not a
/// hundred. The queue is bounded: when it is full `submit` says so at once and the
/// server answers 503, instead of letting requests wait without limit.
final class WorkerPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        /// Each client's jobs, oldest first.
        var queues: [String: [Job]] = [:]
        /// Clients with queued jobs, in the order they are served.
        var ring: [String] = []
        var ringIndex = 0
        var queued = 0
        var stopped = false

        mutating func push(_ job: @escaping Job, for client: String) {
            if queues[client] == nil {
                queues[client] = [job]
                ring.append(client)
            } else {
                queues[client]!.append(job)
            }
            queued += 1
        }

        mutating func pop() -> Job? {
            guard !ring.isEmpty else { return nil }
            if ringIndex >= ring.count { ringIndex = 0 }
            let client = ring[ringIndex]
            var jobs = queues.removeValue(forKey: client)!
            let job = jobs.removeFirst()
            queued -= 1
            if jobs.isEmpty {
                ring.remove(at: ringIndex)
            } else {
                queues[client] = jobs
                ringIndex += 1
            }
            return job
        }
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    private let threadCount: Int
    let queueLimit: Int

    init(threads: Int, queueLimit: Int, name: String) {
        self.threadCount = threads
        self.queueLimit = queueLimit
        for index in 0..<threads {
            let thread = Thread { [self] in self.work() }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    /// Jobs waiting for a thread.
    var queued: Int { state.withLock { $0.queued } }

    /// Queues `job` for `client`; `false` when the queue is full or the pool has stopped.
    func submit(client: String, _ job: @escaping Job) -> Bool {
        let accepted = state.withLock { s -> Bool in
            guard !s.stopped, s.queued < queueLimit else { return false }
            s.push(job, for: client)
            return true
        }
        if accepted { available.signal() }
        return accepted
    }

    /// Runs what is queued, then stops and joins every thread. Later submits are refused.
    func stop() {
        let first = state.withLock { s -> Bool in
            defer { s.stopped = true }
            return !s.stopped
        }
        guard first else { return }
        for _ in 0..<threadCount { available.signal() }
        for _ in 0..<threadCount { exited.wait() }
    }

    private enum Next {
        case run(Job)
        case exit
        case wait
    }

    // Every submit signals once and `stop` signals once per thread, so each wake-up finds
    // either a job or, once stopped and drained, its cue to exit.
    private func work() {
        while true {
            available.wait()
            let next = state.withLock { s -> Next in
                if let job = s.pop() { return .run(job) }
                return s.stopped ? .exit : .wait
            }
            switch next {
            case .run(let job): job()
            case .exit:
                exited.signal()
                return
            case .wait: continue
            }
        }
    }
}
