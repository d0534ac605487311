/// Decides an archive of the log's oldest partitions (`ledger archive`).
public enum LogArchiveDecider {
    /// Archives always continue the last one, file after file without a hole, and never
    /// reach the head: the live log keeps at least its last event, which the next append
    /// links to. The files must have been written and checked already.
    public static func archive(_ files: [LogArchived.File], archivedThrough previous: Int64, head: Int64) throws(Refusal) -> Decision {
        guard let first = files.first, let last = files.last else {
            throw Refusal(.nothingToArchive, "no whole partition lies before the position given")
        }
        guard first.firstPosition == previous + 1 else {
            throw Refusal(.archiveOutOfOrder, "the archive must start at position \(previous + 1), right after the last one, not \(first.firstPosition)")
        }
        for (a, b) in zip(files, files.dropFirst()) where b.firstPosition != a.lastPosition + 1 {
            throw Refusal(.archiveOutOfOrder, "\(b.name) does not continue \(a.name)")
        }
        for file in files where file.events != file.lastPosition - file.firstPosition + 1 {
            throw Refusal(.archiveOutOfOrder, "\(file.name) holds \(file.events) events for positions \(file.firstPosition) to \(file.lastPosition)")
        }
        guard last.lastPosition < head else {
            throw Refusal(.archiveOutOfOrder, "the archive would reach the log's head (\(head)); the live log keeps its last event")
        }
        let event = LogArchived(archivedThrough: last.lastPosition, lastHash: last.lastHash, files: files)
        return Decision(PendingEvent(event, on: LogArchived.stream), idempotencyKey: "log-archive:\(last.lastPosition)")
    }
}

extension Refusal.Code {
    /// No whole partition lies before the position an archive was asked for.
    public static let nothingToArchive = Refusal.Code("nothing_to_archive")
    /// Archive files that do not continue the last archive, or each other, or reach the head.
    public static let archiveOutOfOrder = Refusal.Code("archive_out_of_order")
}
