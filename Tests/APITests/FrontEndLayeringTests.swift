import Foundation
import Testing

/// The API holds no SQL and knows no tables: every read goes through a query and every
/// write through an act of `LedgerServices`. Only the composition root, the file that
/// builds the service's context, may name the storage modules.
@Suite("The front ends know no tables")
struct FrontEndLayeringTests {
    static let storageModules: Set<String> = ["EventStore", "Postgres", "ProjectionEngine", "Projections"]
    static let compositionRoot = "ServiceContext.swift"

    @Test("no file of Sources/API but the composition root imports a storage module")
    func apiImportsNoStorage() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let api = root.appendingPathComponent("Sources/API")
        let files = try #require(FileManager.default.enumerator(at: api, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 40, "Sources/API was found at \(api.path)")
        var offenders: [String] = []
        for file in files where file.lastPathComponent != Self.compositionRoot {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let i = words.firstIndex(of: "import"), i + 1 < words.count else { continue }
                if Self.storageModules.contains(String(words[i + 1])) { offenders.append("\(file.lastPathComponent): \(line)") }
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }
}
