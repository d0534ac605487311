import Foundation
import Testing

/// `../shared` beside the repository: the seed's OpenAPI document and Apple's real
/// Sandbox payloads, which are data the project does not copy. A test that needs them
/// carries `.needsSharedData`: skipped (and reported as skipped) where they are absent,
/// but run, and so failing, in CI (`CI=true`), where their absence is a broken set-up,
/// not a reason to pass.
public enum SharedData {
    /// The `../shared` folder, when it exists.
    public static var folder: String? {
        let path = URL(fileURLWithPath: TestDatabase.repositoryRoot).appendingPathComponent("../shared").standardizedFileURL.path
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// Whether the run is CI's, which must have every test's data.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// A file of `../shared`, or a failure saying it is missing.
    public static func path(_ relative: String) throws -> String {
        guard let folder, FileManager.default.fileExists(atPath: folder + "/" + relative) else {
            throw Missing(relative: relative)
        }
        return folder + "/" + relative
    }

    public struct Missing: Error, CustomStringConvertible {
        public var relative: String
        public init(relative: String) { self.relative = relative }
        public var description: String { "../shared/\(relative) is missing (CI copies ../shared beside the clone)" }
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs where `../shared` is present, and always in CI; skipped elsewhere.
    public static var needsSharedData: Self {
        .enabled(if: SharedData.folder != nil || SharedData.isCI, "../shared is absent (outside CI these tests are skipped)")
    }
}
