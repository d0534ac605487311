/// What a checked archive file holds: a run of consecutive positions and the hashes at
/// both ends, to link it to the files before and after it and to the live log.
public struct ArchiveSegment: Sendable, Equatable {
    public let path: String
    public let firstPosition: Int64
    public let lastPosition: Int64
    /// The hash of the event before the segment (32 zero bytes before position 1).
    public let previousHash: [UInt8]
    public let lastHash: [UInt8]
    public let events: Int

    /// Reads and checks the whole file.
    public static func read(_ path: String) throws(ArchiveReader.Invalid) -> ArchiveSegment {
        try ArchiveReader(path: path).readToEnd()
    }
}
