import Foundation
import Glibc
import LedgerJSON

/// Headless Chromium driven through the DevTools protocol over a pipe
/// (`--remote-debugging-pipe`: commands in on descriptor 3, answers out on 4, each message
/// ended by a NUL byte), for the console's browser tests. No WebSocket, no driver package:
/// Debian's `chromium` (which the test command installs) and this file.
public final class Chromium: @unchecked Sendable {
    /// Debian's binary itself (its `/usr/bin/chromium` wrapper is a shell script), or CHROMIUM.
    public static var path: String? {
        if let configured = ProcessInfo.processInfo.environment["CHROMIUM"] { return configured }
        return ["/usr/lib/chromium/chromium", "/usr/bin/chromium"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    private let pid: pid_t
    private let commands: Int32
    private let answers: Int32
    private let profile: String
    private var nextID = 0
    private var buffer: [UInt8] = []

    public init() throws {
        guard let path = Self.path else {
            throw Failure(description: "chromium is not installed: scripts/install-deps.sh installs it (apt-get install chromium)")
        }
        profile = NSTemporaryDirectory() + "ledger-chromium-" + UUID().uuidString
        var toChrome: [Int32] = [0, 0], fromChrome: [Int32] = [0, 0]
        guard pipe(&toChrome) == 0, pipe(&fromChrome) == 0 else { throw Failure(description: "pipe() failed") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, toChrome[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromChrome[1], 4)
        // Only 0-4 reach the browser: every other descriptor of the test process is closed
        // on exec (the four pipe ends included; their copies at 3 and 4 are not).
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let fd = Int32(name), fd > 2 else { continue }
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
        let argv = [path, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                    "--hide-scrollbars", "--window-size=1280,900", "--remote-debugging-pipe", "--user-data-dir=" + profile]
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, cArguments, cEnvironment)
        close(toChrome[0])
        close(fromChrome[1])
        guard spawned == 0 else {
            close(toChrome[1])
            close(fromChrome[0])
            throw Failure(description: "posix_spawn \(path): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        commands = toChrome[1]
        answers = fromChrome[0]
    }

    deinit {
        close(commands)
        close(answers)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        // Chromium's helper processes outlive the browser by a moment and may still write
        // into the profile: remove it until it stays removed.
        let profile = self.profile
        _ = Poll.until(timeout: 5, interval: 0.05) {
            try? FileManager.default.removeItem(atPath: profile)
            return !FileManager.default.fileExists(atPath: profile)
        }
    }

    /// Sends a command and returns its `result`; a protocol error throws.
    @discardableResult
    public func send(_ method: String, _ params: JSONValue = [:], session: String? = nil, timeout: Double = 20) throws -> JSONValue {
        nextID += 1
        var message: [String: JSONValue] = ["id": .integer(Int64(nextID)), "method": .string(method), "params": params]
        if let session { message["sessionId"] = .string(session) }
        var bytes = Array(JSONValue.object(message).compactText().utf8)
        bytes.append(0)
        var written = 0
        while written < bytes.count {
            let n = bytes[written...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure(description: "the browser's pipe is closed") }
            written += n
        }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            while let end = buffer.firstIndex(of: 0) {
                let text = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                let answer = try JSONValue.parse(text)
                guard answer["id"]?.int64Value == Int64(nextID) else { continue }
                if let error = answer["error"] { throw Failure(description: "\(method): \(error.compactText())") }
                return answer["result"] ?? [:]
            }
            var descriptor = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            guard left > 0, poll(&descriptor, 1, left) > 0 else { throw Failure(description: "\(method): no answer within \(timeout) s") }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = chunk.withUnsafeMutableBytes { read(answers, $0.baseAddress, $0.count) }
            guard n > 0 else { throw Failure(description: "the browser exited") }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// A tab with cookies of its own (a fresh browser context): two tabs are two people.
    public func newTab() throws -> Tab {
        let context = try send("Target.createBrowserContext")["browserContextId"]?.stringValue ?? ""
        let target = try send("Target.createTarget", ["url": "about:blank", "browserContextId": .string(context)])["targetId"]?.stringValue ?? ""
        let session = try send("Target.attachToTarget", ["targetId": .string(target), "flatten": true])["sessionId"]?.stringValue ?? ""
        try send("Page.enable", session: session)
        return Tab(browser: self, session: session)
    }

    /// One tab: navigate, read, act as a person would (fill a field, press a button).
    public struct Tab {
        let browser: Chromium
        let session: String

        /// The value of a JavaScript expression, evaluated in the page.
        @discardableResult
        public func evaluate(_ expression: String) throws -> JSONValue {
            let result = try browser.send("Runtime.evaluate", ["expression": .string(expression), "returnByValue": true], session: session)
            if let exception = result["exceptionDetails"] { throw Failure(description: "\(expression): \(exception.compactText())") }
            return result["result"]?["value"] ?? .null
        }

        public func go(_ url: String) throws {
            let before = try evaluate("performance.timeOrigin")
            try browser.send("Page.navigate", ["url": .string(url)], session: session)
            try waitForNewPage(after: before)
        }

        /// Runs `action` (a click, a form sent) and waits for the page it leads to.
        public func andWait(_ action: String) throws {
            let before = try evaluate("performance.timeOrigin")
            try evaluate(action)
            try waitForNewPage(after: before)
        }

        private func waitForNewPage(after origin: JSONValue) throws {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                if let now = try? evaluate("document.readyState === 'complete' ? performance.timeOrigin : null"), now != .null, now != origin {
                    return
                }
                var descriptor = pollfd(fd: -1, events: 0, revents: 0)
                _ = poll(&descriptor, 0, 25)
            }
            throw Failure(description: "no new page within 20 s")
        }

        public var path: String { get throws { try evaluate("location.pathname + location.search").stringValue ?? "" } }
        public var text: String { get throws { try evaluate("document.body.innerText").stringValue ?? "" } }
        public var html: String { get throws { try evaluate("document.documentElement.outerHTML").stringValue ?? "" } }

        /// Types `value` into the field labelled by the element with `id`.
        public func fill(_ id: String, _ value: String) throws {
            try evaluate("document.getElementById(\(JSONValue.string(id).compactText())).value = \(JSONValue.string(value).compactText())")
        }

        /// A PNG of the page as it is drawn.
        public func screenshot() throws -> [UInt8] {
            let data = try browser.send("Page.captureScreenshot", ["format": "png", "captureBeyondViewport": true], session: session)
            return Array(Data(base64Encoded: data["data"]?.stringValue ?? "") ?? Data())
        }
    }
}
