import CCurl
import Foundation
import Synchronization

/// Outbound HTTP over libcurl's multi interface: one thread drives every transfer in
/// flight, so a receiver that hangs holds nothing but its own transfer (and its timeout),
/// never a thread, and cannot slow down the others.
public final class OutboundClient: @unchecked Sendable {
    // `multi` is used by the driver thread only, but for `curl_multi_wakeup`, which libcurl
    // allows from any thread.
    public typealias Completion = @Sendable (Result<OutboundResponse, OutboundError>) -> Void

    /// An answer longer than this is cut off (`answer_too_large`).
    public static let maximumAnswerBytes = 1 << 20

    private struct Job: @unchecked Sendable {
        var request: OutboundRequest
        var completion: Completion
    }

    private struct Queue {
        var jobs: [Job] = []
        var closed = false
    }

    public let policy: OutboundPolicy
    private let multi: UnsafeMutableRawPointer
    private let queue = Mutex(Queue())
    private let finished = DispatchSemaphore(value: 0)
    /// Only touched on the driver thread.
    private var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    private static let global: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    public init(policy: OutboundPolicy) {
        _ = Self.global
        self.policy = policy
        multi = curl_multi_init()
        let thread = Thread { [self] in drive() }
        thread.name = "ledger-outbound"
        thread.start()
    }

    deinit { curl_multi_cleanup(multi) }

    /// Sends `request`; `completion` runs on the driver thread once it is answered or has
    /// failed, so it must not block.
    public func submit(_ request: OutboundRequest, completion: @escaping Completion) {
        let accepted = queue.withLock { q -> Bool in
            guard !q.closed else { return false }
            q.jobs.append(Job(request: request, completion: completion))
            return true
        }
        guard accepted else { return completion(.failure(OutboundError(.closed, "the outbound client is closed"))) }
        curl_multi_wakeup(multi)
    }

    /// Sends `request` and waits for its outcome (for commands and tests; a server submits).
    public func send(_ request: OutboundRequest) throws(OutboundError) -> OutboundResponse {
        let outcome = Mutex<Result<OutboundResponse, OutboundError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        submit(request) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    /// Fails what has not started, lets what is in flight finish, and stops the thread.
    public func close() {
        let first = queue.withLock { q -> Bool in
            defer { q.closed = true }
            return !q.closed
        }
        guard first else { return }
        curl_multi_wakeup(multi)
        finished.wait()
    }

    private func drive() {
        while true {
            let (jobs, closed) = queue.withLock { q -> ([Job], Bool) in
                defer { q.jobs.removeAll() }
                return (q.jobs, q.closed)
            }
            for job in jobs {
                if closed {
                    job.completion(.failure(OutboundError(.closed, "the outbound client is closed")))
                    continue
                }
                do {
                    let transfer = try CurlTransfer(job.request, policy: policy, completion: job.completion)
                    running[transfer.easy] = transfer
                    curl_multi_add_handle(multi, transfer.easy)
                } catch {
                    job.completion(.failure(error))
                }
            }
            var active: Int32 = 0
            curl_multi_perform(multi, &active)
            collect()
            if closed && running.isEmpty {
                finished.signal()
                return
            }
            var ready: Int32 = 0
            curl_multi_poll(multi, nil, 0, 1_000, &ready)
        }
    }

    /// Completes the transfers libcurl has finished.
    private func collect() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                  let transfer = running.removeValue(forKey: easy) else { continue }
            let code = ledger_curl_message_result(message)
            curl_multi_remove_handle(multi, easy)
            transfer.completion(transfer.outcome(code))
        }
    }
}
