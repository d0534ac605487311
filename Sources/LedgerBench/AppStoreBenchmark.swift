@_spi(Benchmark) import AppStore
import LedgerCLI
import Foundation

/// `ledger-bench appstore`: full verifications of the real Sandbox notifications on one
/// thread, against the ceiling OpenSSL's ES256 verification alone sets in the same run.
enum AppStoreBenchmark {
    static let usage = """
        usage: ledger-bench appstore [--seconds S] [--dir DIR]

        Verifies the real Sandbox notifications (notif_*.jws) of DIR (default:
        ../shared/testdata/apple/real-sandbox from the working directory or the repository
        root) in a loop on one thread for S seconds (default 5), each fully: the
        notification, its signedTransactionInfo and its signedRenewalInfo (three ES256
        signatures, x5c chains to Apple Root CA - G3, Apple's OIDs, validity at each
        signedDate, bundle ID and environment), with the production policy. Chains that
        verified are reused; every token's signature and dates are checked afresh. Prints
        verifications/s with p50, p99 and max per verification, then the baseline measured
        in the same run: the same three signatures per notification checked bare (SHA-256
        and ECDSA only), through EVP_PKEY_verify and with the leaf's precomputed multiples
        a busy chain gets.
        """

    static let bundleID = "com.loki-project.loki-messenger"
    static let relativeFolder = "../shared/testdata/apple/real-sandbox"

    static func run(arguments: [String], environment: LedgerEnvironment) throws -> Int32 {
        let args = try Arguments(arguments, valued: ["seconds", "dir"], boolean: [])
        // BenchCommand's usage, printed after these, does not describe this benchmark.
        guard args.positionals.isEmpty else { throw UsageError("unexpected \(args.positionals[0])\n\n\(usage)") }
        let seconds = Double(args.value("seconds") ?? "5") ?? -1
        guard seconds > 0, seconds.isFinite else { throw UsageError("--seconds must be a positive number\n\n\(usage)") }
        guard let folder = locateFolder(configured: args.value("dir")) else {
            let looked = args.value("dir").map { [$0] } ?? candidates()
            FileHandle.standardError.write(Data("""
                ledger-bench appstore: the real Sandbox notifications are absent: no folder with notif_*.jws at \
                \(looked.joined(separator: ", ")). Put ../shared beside the repository or pass --dir.

                """.utf8))
            return 1
        }
        let tokens = try loadTokens(folder)
        let verifier = AppStoreVerifier(policy: .production, bundleID: bundleID)
        // Every token must verify before anything is timed: a fast refusal is no benchmark.
        var signedTexts: [[String]] = []
        for (name, jws) in tokens {
            do throws(AppStoreError) {
                let notification = try verifier.verifyNotification(jws)
                guard case .string(let transaction)? = notification.payload["data"]?["signedTransactionInfo"],
                      case .string(let renewal)? = notification.payload["data"]?["signedRenewalInfo"] else {
                    throw AppStoreError(.malformedPayload, "it carries no signedTransactionInfo or signedRenewalInfo")
                }
                signedTexts.append([jws, transaction, renewal])
            } catch {
                FileHandle.standardError.write(Data("ledger bench appstore: \(name) does not verify: \(error)\n".utf8))
                return 1
            }
        }
        BenchOutput.line("bench appstore: \(tokens.count) real Sandbox notifications from \(folder), production policy, one thread, \(String(format: "%.1f", seconds)) s")

        let full = measure(seconds: seconds, count: tokens.count) { i in
            (try? verifier.verifyNotification(tokens[i].jws)) != nil
        }
        guard let full else { return failed("a notification stopped verifying during the run") }
        BenchOutput.line(full.line("appstore", unit: "verifications"))
        BenchOutput.line("  one verification: the notification, its signedTransactionInfo and its signedRenewalInfo (3 signatures)")

        // The baseline, measured now on the same tokens: the three bare ES256 checks of each
        // notification (SHA-256 and ECDSA, nothing else), through EVP_PKEY_verify and with
        // the leaf's precomputed multiples.
        let ceilings = signedTexts.map { $0.compactMap { SignatureCeiling(jws: $0) } }
        guard ceilings.allSatisfy({ $0.count == 3 }) else { return failed("a leaf or signature does not parse") }
        let baseline = max(0.5, seconds / 5)
        let evp = measure(seconds: baseline, count: ceilings.count) { i in ceilings[i].allSatisfy { $0.verifyOnceThroughEVP() } }
        let precomputed = measure(seconds: baseline, count: ceilings.count) { i in ceilings[i].allSatisfy { $0.verifyOncePrecomputed() } }
        guard let evp, let precomputed else { return failed("a bare ES256 check failed") }
        BenchOutput.line(evp.line("3 bare signatures, EVP_PKEY_verify", unit: "notifications"))
        BenchOutput.line(precomputed.line("3 bare signatures, precomputed leaf", unit: "notifications"))
        BenchOutput.line(String(format: "appstore: %.0f verifications/s, p99 %.3f ms; ", full.perSecond, full.p99)
            + String(format: "bare signatures alone: %.0f/s precomputed, %.0f/s through EVP; full/bare %.2f",
                     precomputed.perSecond, evp.perSecond, full.perSecond / precomputed.perSecond))
        return 0
    }

    /// Runs `body` over indices 0..<count in turn until `seconds` pass; nil if it ever returns false.
    private static func measure(seconds: Double, count: Int, _ body: (Int) -> Bool) -> LatencySummary? {
        var latencies: [Double] = []
        latencies.reserveCapacity(Int(seconds * 20_000))
        let budget = UInt64(seconds * 1e9)
        let start = DispatchTime.now().uptimeNanoseconds
        var now = start
        var i = 0
        while now - start < budget {
            let before = now
            guard body(i) else { return nil }
            now = DispatchTime.now().uptimeNanoseconds
            latencies.append(Double(now - before) / 1e9)
            i = i + 1 == count ? 0 : i + 1
        }
        return LatencySummary(latencies: latencies, seconds: Double(now - start) / 1e9)
    }

    private static func failed(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("ledger bench appstore: \(message)\n".utf8))
        return 1
    }

    private static func loadTokens(_ folder: String) throws -> [(name: String, jws: String)] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasPrefix("notif_") && $0.hasSuffix(".jws") }.sorted()
        return try names.map { name in
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            return (name, text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// `relativeFolder` from the working directory, then from each folder above the
    /// executable and the working directory that holds Package.swift (the repository root).
    static func candidates() -> [String] {
        let fm = FileManager.default
        var found = [fm.currentDirectoryPath + "/" + relativeFolder]
        for start in [URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath().deletingLastPathComponent(),
                      URL(fileURLWithPath: fm.currentDirectoryPath)] {
            var dir = start
            for _ in 0..<8 {
                if fm.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
                    found.append(dir.appendingPathComponent(relativeFolder).standardizedFileURL.path)
                    break
                }
                dir.deleteLastPathComponent()
            }
        }
        return found
    }

    private static func locateFolder(configured: String?) -> String? {
        func hasTokens(_ path: String) -> Bool {
            ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).contains { $0.hasPrefix("notif_") && $0.hasSuffix(".jws") }
        }
        if let configured { return hasTokens(configured) ? configured : nil }
        return candidates().first(where: hasTokens)
    }
}
