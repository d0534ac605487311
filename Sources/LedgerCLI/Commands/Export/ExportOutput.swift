import Foundation

/// Where an export goes: standard output or a file, written in blocks of 64 KiB so that a
/// million lines cost a few hundred writes.
final class ExportOutput {
    private let handle: FileHandle
    private let path: String?
    private var buffer: [UInt8] = []
    private(set) var lines = 0

    init(path: String?) throws {
        self.path = path
        if let path {
            guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
                throw UsageError("cannot write \(path)")
            }
            self.handle = handle
        } else {
            self.handle = FileHandle.standardOutput
        }
        buffer.reserveCapacity(1 << 16)
    }

    func line(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        buffer.append(0x0A)
        lines += 1
        if buffer.count >= 1 << 16 { try flush() }
    }

    func finish() throws {
        try flush()
        if path != nil { try handle.close() }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try handle.write(contentsOf: buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
