import Dispatch
import EventStore
import Foundation
import LedgerCLI
import Postgres
import ProjectionEngine
import Projections
import Synchronization

/// Samples, every `interval` seconds on a thread of its own, the log's head and the billing
/// projection's position, to tell how far behind the projector ran: in positions, and in
/// seconds (how long ago the head passed the position the projection has reached).
final class ProjectorLagSampler: Sendable {
    private struct Sample: Sendable { var at: Double; var head: Int64; var projected: Int64 }
    private let samples = Mutex<[Sample]>([])
    private let stopFlag = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(url: String, interval: Double = 0.02) throws {
        let connection = try PostgresConnection(conninfo: url)
        let start = DispatchTime.now().uptimeNanoseconds
        let thread = Thread { [self] in
            defer { finished.signal() }
            while !stopFlag.load(ordering: .relaxed) {
                guard let head = try? LogReader(connection).headPosition(),
                      let projected = try? ProjectionSchema.progress(BillingProjection().schema, on: connection)?.position else { return }
                let at = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                samples.withLock { $0.append(Sample(at: at, head: head, projected: projected)) }
                Thread.sleep(forTimeInterval: interval)
            }
        }
        thread.name = "bench-lag"
        thread.start()
    }

    struct Summary {
        var p50Seconds: Double
        var p99Seconds: Double
        var maxSeconds: Double
        var maxPositions: Int64
    }

    /// Stops sampling and summarises the lag over the samples taken.
    func stop() -> Summary {
        stopFlag.store(true, ordering: .relaxed)
        finished.wait()
        let all = samples.withLock { $0 }
        var lags: [Double] = []
        var earliest = 0
        for sample in all {
            // The first sample whose head had reached what the projection has now.
            while earliest < all.count && all[earliest].head < sample.projected { earliest += 1 }
            lags.append(sample.projected >= sample.head ? 0 : max(0, sample.at - all[min(earliest, all.count - 1)].at))
        }
        lags.sort()
        return Summary(p50Seconds: Percentile.nearestRank(lags, 0.5), p99Seconds: Percentile.nearestRank(lags, 0.99), maxSeconds: lags.last ?? 0,
                       maxPositions: all.map { $0.head - $0.projected }.max() ?? 0)
    }
}
