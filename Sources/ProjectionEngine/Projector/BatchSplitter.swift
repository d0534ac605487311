import EventStore

/// Splits each batch a rebuild reads among its consumers, each taking the event types it
/// folds (`Projection.eventTypes`; nil for every event).
struct BatchSplitter: Sendable {
    let filters: [Set<String>?]

    init(_ filters: [Set<String>?]) {
        // A bit per consumer in `batches`.
        precondition(filters.count <= UInt64.bitWidth, "at most \(UInt64.bitWidth) consumers")
        self.filters = filters
    }

    /// One batch per consumer, in order, each reaching the last event's position; those
    /// without a filter share `events` itself.
    func batches(_ events: [RecordedEvent]) -> [EventPrefetcher.Batch] {
        guard let through = events.last?.position else { return filters.map { _ in .init(events: [], through: 0) } }
        let filtered = filters.indices.filter { filters[$0] != nil }
        var taken = [[RecordedEvent]](repeating: [], count: filters.count)
        if !filtered.isEmpty {
            // Which consumers take each type, looked up once per event (a batch holds few types).
            var takers: [String: UInt64] = [:]
            for event in events {
                let mask: UInt64
                if let known = takers[event.type] {
                    mask = known
                } else {
                    mask = filtered.reduce(0) { $0 | (filters[$1]!.contains(event.type) ? 1 << UInt64($1) : 0) }
                    takers[event.type] = mask
                }
                guard mask != 0 else { continue }
                for i in filtered where mask & (1 << UInt64(i)) != 0 { taken[i].append(event) }
            }
        }
        return filters.indices.map { i in .init(events: filters[i] == nil ? events : taken[i], through: through) }
    }
}
