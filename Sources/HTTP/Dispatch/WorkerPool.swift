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
///
/// A job wakes the thread that went idle last, not the one idle longest: a few threads
/// then do the work while the rest sleep, and their stacks, caches and malloc arenas stay
/// warm. Waking them in turn (one shared semaphore wakes its waiters in order) spread
/// every four requests over sixteen cold threads.
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
        /// Threads waiting for a job, the one that went idle last at the end.
        var idle: [Int] = []

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
    /// One per thread: a thread sleeps on its own, once it is on the `idle` stack.
    private let wakers: [DispatchSemaphore]
    private let exited = DispatchSemaphore(value: 0)
    private let threadCount: Int
    let queueLimit: Int

    init(threads: Int, queueLimit: Int, name: String) {
        self.threadCount = threads
        self.queueLimit = queueLimit
        self.wakers = (0..<threads).map { _ in DispatchSemaphore(value: 0) }
        for index in 0..<threads {
            let thread = Thread { [self] in self.work(index) }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    /// Jobs waiting for a thread.
    var queued: Int { state.withLock { $0.queued } }

    /// Threads waiting for a job.
    var idle: Int { state.withLock { $0.idle.count } }

    /// Queues `job` for `client`; `false` when the queue is full or the pool has stopped.
    func submit(client: String, _ job: @escaping Job) -> Bool {
        let (accepted, wake) = state.withLock { s -> (Bool, Int?) in
            guard !s.stopped, s.queued < queueLimit else { return (false, nil) }
            s.push(job, for: client)
            return (true, s.idle.popLast())
        }
        if let wake { wakers[wake].signal() }
        return accepted
    }

    /// Runs what is queued, then stops and joins every thread. Later submits are refused.
    func stop() {
        let sleeping = state.withLock { s -> [Int]? in
            guard !s.stopped else { return nil }
            s.stopped = true
            defer { s.idle.removeAll() }
            return s.idle
        }
        guard let sleeping else { return }
        for index in sleeping { wakers[index].signal() }
        for _ in 0..<threadCount { exited.wait() }
    }

    private enum Next {
        case run(Job)
        case exit
        case sleep
    }

    // A thread sleeps only after putting itself on the idle stack under the lock, and
    // whoever takes it off (a submit, or `stop`) signals it exactly once, so no job is
    // left queued while a thread sleeps. Busy threads look at the queue before sleeping.
    private func work(_ index: Int) {
        while true {
            let next = state.withLock { s -> Next in
                if let job = s.pop() { return .run(job) }
                if s.stopped { return .exit }
                s.idle.append(index)
                return .sleep
            }
            switch next {
            case .run(let job): job()
            case .exit:
                exited.signal()
                return
            case .sleep: wakers[index].wait()
            }
        }
    }
}
