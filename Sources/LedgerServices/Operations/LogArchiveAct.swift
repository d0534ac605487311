import LedgerDomain

/// The record of an archive: the files the front end wrote (with `ArchiveWriter`), which
/// must continue the last archive and lie before the log's head (`LogArchiveDecider`),
/// judged on the archive stream and the head as the log holds them now.
public struct LogArchiveAct: LedgerAct {
    public var files: [LogArchived.File]

    public init(files: [LogArchived.File]) { self.files = files }

    public func decide(_ reads: ActReads) throws -> Decision {
        let archived = try reads.stream(LogArchived.stream).last.map { try $0.decode(LogArchived.self).archivedThrough } ?? 0
        return try LogArchiveDecider.archive(files, archivedThrough: archived, head: try reads.headPosition())
    }
}
