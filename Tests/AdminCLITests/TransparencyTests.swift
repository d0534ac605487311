import API
import BenchHTTP
import Crypto
import EventStore
import Foundation
import HTTP
import LedgerCLI
import LedgerDomain
import LedgerFixtures
import LedgerJSON
import LedgerServices
import Observability
import Postgres
import ProjectionEngine
import Projections
import Testing
import TestSupport
import Workers

/// The Merkle tree the projector keeps over the log, signed checkpoints, and the proofs an
/// auditor checks from outside (docs/audit.md), every one checked here by RFC 9162 written
/// out (`ReferenceMerkle`), none of the service's proof code.
@Suite("The log, checkable from outside: Merkle tree, signed checkpoints, proofs", .bounded)
struct TransparencyTests {
    /// The API over the fixture's database, the auditor's and a payer's keys, a checkpointer.
    final class Harness {
        let f: AdminFixture
        let context: ServiceContext
        let server: HTTPServer
        /// The operations listener: readiness in full and the metrics.
        let operations: HTTPServer
        let key = Ed25519SigningKey()
        let checkpointer: Checkpointer
        let auditorKey: String
        let payerKey: String
        let clock = ManualClock("2026-12-01T10:00:00Z")

        init(publicCheckpoints: Bool = false, partitionSize: Int64 = TestDatabase.partitionSize) throws {
            f = try AdminFixture(partitionSize: partitionSize)
            let context = ServiceContext(store: f.store, connections: f.pool, logger: Logger(minimumLevel: .error, sink: MemoryLogSink()),
                                         metrics: MetricsRegistry(), migrations: try Migration.load(from: TestDatabase.migrationsDirectory),
                                         cursorSecret: Array("test-cursor-secret-of-at-least-32-bytes".utf8), publicCheckpoints: publicCheckpoints)
            context.start()
            self.context = context
            server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 4), router: LedgerAPI.router(context),
                                logger: Logger(minimumLevel: .error, sink: MemoryLogSink()))
            try server.start()
            operations = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threads: 1), router: LedgerAPI.operationsRouter(context),
                                    logger: Logger(minimumLevel: .error, sink: MemoryLogSink()))
            try operations.start()
            let clock = self.clock
            checkpointer = Checkpointer(configuration: .init(key: key, origin: "ledger.test", policy: .init(events: 1, seconds: 3_600),
                                                             now: clock.read),
                                        store: f.store, connections: f.pool, isActive: { true }, log: { _, _, _ in })
            auditorKey = try #require(try f.adminJSON(["key", "issue", "--auditor", "alice-audit"])["secret"]?.stringValue)
            try f.payer("acme")
            payerKey = try #require(try f.adminJSON(["key", "issue", "--payer", "acme"])["secret"]?.stringValue)
        }

        deinit {
            operations.shutdown(gracePeriod: 0)
            server.shutdown(gracePeriod: 1)
            context.stop()
            f.shutdown()
        }

        /// A GET on the public port, or with `operations` on the operations listener.
        func get(_ path: String, key: String?, operations: Bool = false) throws -> (status: Int, json: JSONValue) {
            let headers = key.map { [("Authorization", "Bearer \($0)")] } ?? []
            let port = operations ? self.operations.port : server.port
            let response = try HTTPClient(host: "127.0.0.1", port: port).send(method: "GET", path: path, headers: headers)
            return (response.status, (try? JSONValue.parse(response.body)) ?? .null)
        }

        /// Waits until the tree holds the whole log.
        func settleTree() throws {
            let head = try f.head()
            try #require(Poll.until(timeout: 20) { (try? MerkleReadModel(connections: f.pool).treeSize()).flatMap { $0 } ?? 0 >= head },
                         "the tree did not reach position \(head)")
        }

        /// Signs a checkpoint of the whole log as it is now, and waits for the tree to hold it.
        func checkpoint() throws -> MerkleReadModel.Checkpoint {
            try settleTree()
            clock.advance(seconds: 1)
            let position = try #require(try checkpointer.tick())
            try settleTree()
            return try #require(try MerkleReadModel(connections: f.pool).checkpoint(at: position))
        }

        /// Every event's chain hash, in order: the leaves' data.
        func chainHashes() throws -> [[UInt8]] { try f.events().map(\.hash) }

        /// Appends `count` events in appends of varied sizes.
        func grow(_ count: Int, seed: UInt64) throws {
            var random = SeededRandom(seed: seed)
            var left = count
            while left > 0 {
                let n = min(left, random.int(1...40))
                _ = try f.store.append(AppendRequest(events: (0..<n).map { i in
                    EventToAppend(stream: "tree-\(random.int(0...9))", type: "test.leaf", data: ["i": .integer(Int64(i))],
                                  metadata: EventMetadata(actor: Actor(.system, "tests")))
                }))
                left -= n
            }
        }
    }

    static func hex(_ value: JSONValue?) -> [UInt8]? { value?.stringValue.flatMap(Hex.decode) }

    @Test("checkpoints and proofs over HTTP: the signature checks with the public key, every root and proof equals RFC 9162's; auditor keys only")
    func proofsOverHTTP() throws {
        let h = try Harness()
        try h.grow(97, seed: 1)
        let signed = try h.checkpoint()
        let size = signed.checkpoint.size
        let leaves = try h.chainHashes()
        #expect(size == Int64(leaves.count) - 1, "the checkpoint covers the log before it")

        // Keys: none is a 401, a payer's a 403, the auditor's a 200.
        #expect(try h.get("/v1/log/checkpoints/latest", key: nil).status == 401)
        #expect(try h.get("/v1/log/checkpoints/latest", key: h.payerKey).status == 403)
        #expect(try h.get("/v1/log/proofs/inclusion?position=1&size=\(size)", key: h.payerKey).status == 403)
        let latest = try h.get("/v1/log/checkpoints/latest", key: h.auditorKey)
        #expect(latest.status == 200)
        let text = try #require(latest.json["text"]?.stringValue)
        let signature = try #require(latest.json["signature"]?.stringValue.flatMap { StrictBase64.decode($0, .standard) })
        let publicKey = try #require(latest.json["public_key_pem"]?.stringValue.flatMap(Ed25519.publicKey(pem:)))
        #expect(publicKey == h.key.publicKey && Ed25519.verify(publicKey: publicKey, message: Array(text.utf8), signature: signature))
        let parsed = try #require(LogCheckpoint(text: text))
        #expect(parsed.size == size && parsed.root == ReferenceMerkle.mth(leaves.prefix(Int(size))[...]))
        #expect(parsed.head == leaves[Int(size) - 1])
        #expect(try h.get("/v1/log/checkpoints/\(signed.position)", key: h.auditorKey).json["root"] == latest.json["root"])
        #expect(try h.get("/v1/log/checkpoints/1", key: h.auditorKey).status == 404)
        #expect(try h.get("/v1/log/checkpoints/nope", key: h.auditorKey).status == 400)

        // Inclusion: the path is RFC 9162's; the event's canonical bytes give its chain hash.
        for position in [1, 2, 3, 31, 32, 33, 64, Int(size) - 1, Int(size)] {
            let proof = try h.get("/v1/log/proofs/inclusion?position=\(position)&size=\(size)", key: h.auditorKey)
            #expect(proof.status == 200, "\(position): \(proof.json)")
            let path = try #require(proof.json["path"]?.arrayValue).compactMap { Self.hex($0) }
            #expect(path == ReferenceMerkle.path(position - 1, leaves.prefix(Int(size))[...]), "path of \(position)")
            #expect(Self.hex(proof.json["root"]) == parsed.root)
            let event = try #require(proof.json["event"])
            let canonical = try #require(event["canonical"]?.stringValue.flatMap { StrictBase64.decode($0, .standard) })
            let prev = try #require(Self.hex(event["prev_hash"]))
            #expect(ReferenceMerkle.sha256(prev + canonical) == leaves[position - 1])
            #expect(Self.hex(proof.json["leaf_hash"]) == ReferenceMerkle.sha256([0] + leaves[position - 1]))
        }
        // Consistency from every earlier size to the checkpoint's.
        for from in 1...Int(size) {
            let proof = try h.get("/v1/log/proofs/consistency?from=\(from)&to=\(size)", key: h.auditorKey)
            let path = try #require(proof.json["path"]?.arrayValue, "\(from): \(proof.json)").compactMap { Self.hex($0) }
            #expect(path == (from == Int(size) ? [] : ReferenceMerkle.proof(from, leaves.prefix(Int(size))[...])), "from \(from)")
            #expect(Self.hex(proof.json["from_root"]) == ReferenceMerkle.mth(leaves.prefix(from)[...]))
        }
        // Bad parameters are named; a size past the log is a 400, not a wait.
        for path in ["/v1/log/proofs/inclusion?size=3", "/v1/log/proofs/inclusion?position=0&size=3", "/v1/log/proofs/inclusion?position=4&size=3",
                     "/v1/log/proofs/inclusion?position=1&size=999999", "/v1/log/proofs/consistency?from=5&to=3",
                     "/v1/log/proofs/consistency?from=1&to=01"] {
            let refused = try h.get(path, key: h.auditorKey)
            #expect(refused.status == 400 && refused.json["code"] == "invalid_parameter", "\(path): \(refused.json)")
        }
        // The operations listener's readiness and metrics name the last checkpoint (an
        // operator alerts on its age); the public readiness does not.
        #expect(Poll.until(timeout: 10) { (try? h.get("/readyz", key: nil, operations: true).json["checkpoint"]?["size"]) == .integer(size) })
        #expect(try h.get("/readyz", key: nil).json["checkpoint"] == nil)
        let metrics = try HTTPClient(host: "127.0.0.1", port: h.operations.port).send(method: "GET", path: "/metrics")
        #expect(String(decoding: metrics.body, as: UTF8.self).contains("ledger_checkpoint_size \(size)"))
        // The command line prints the same proof.
        let cli = try #require(h.f.audit(["prove", "--position", "7", "--size", "\(size)", "--json"]).output.data(using: .utf8))
        let printed = try JSONValue.parse(Array(cli))
        #expect(printed["path"] == (try h.get("/v1/log/proofs/inclusion?position=7&size=\(size)", key: h.auditorKey)).json["path"])
        let checked = h.f.audit(["checkpoint"])
        #expect(checked.status == 0 && checked.output.contains("signature: valid"), "\(checked.errors)")
    }

    /// The auditor's script of docs/audit.md, run by python3 on `files` (kept.txt,
    /// latest.txt, consistency.json, inclusion.json); its exit status and output.
    static func auditorScript(_ files: [String: [UInt8]]) throws -> (status: Int32, output: String) {
        let doc = try String(contentsOfFile: TestDatabase.repositoryRoot + "/docs/audit.md", encoding: .utf8)
        let start = try #require(doc.range(of: "python3 - \"$work\" <<'PY'\n")).upperBound
        let end = try #require(doc.range(of: "\nPY\n", range: start..<doc.endIndex)).lowerBound
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Data(doc[start..<end].utf8).write(to: URL(fileURLWithPath: directory + "/audit.py"))
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name)) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", directory + "/audit.py", directory]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let (output, killed) = ProcessWatchdog.bounded(process) { pipe.fileHandleForReading.readDataToEndOfFile() }
        if killed { Issue.record("the auditor's script ran past 120 s and was killed") }
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test("the auditor's script of docs/audit.md (python3, none of our code) accepts the service's proofs, and refuses a changed proof, root or event")
    func auditorsScript() throws {
        let h = try Harness()
        _ = try h.f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "1000", "--description", "d"])
        try h.grow(37, seed: 7)
        let kept = try h.checkpoint()
        try h.grow(58, seed: 8)
        let latest = try h.checkpoint()
        let (m, n) = (kept.checkpoint.size, latest.checkpoint.size)
        let credit = try #require(try h.f.events().first { $0.type == "credit.posted" })
        func body(_ path: String) throws -> [UInt8] {
            let response = try HTTPClient(host: "127.0.0.1", port: h.server.port).send(
                method: "GET", path: path, headers: [("Authorization", "Bearer \(h.auditorKey)")])
            try #require(response.status == 200, "\(path): \(response.status)")
            return response.body
        }
        let files: [String: [UInt8]] = [
            "kept.txt": Array(kept.checkpoint.text.utf8), "latest.txt": Array(latest.checkpoint.text.utf8),
            "consistency.json": try body("/v1/log/proofs/consistency?from=\(m)&to=\(n)"),
            "inclusion.json": try body("/v1/log/proofs/inclusion?position=\(credit.position)&size=\(n)"),
        ]
        let run = try Self.auditorScript(files)
        #expect(run.status == 0 && run.output.contains("extends the kept one of \(m)"), "\(run.output)")
        // A changed proof element, another kept root, a changed event: each refused.
        func changed(_ name: String, _ from: String, _ to: String) -> [String: [UInt8]] {
            var copy = files
            copy[name] = Array(String(decoding: files[name]!, as: UTF8.self).replacingOccurrences(of: from, with: to).utf8)
            return copy
        }
        let proof = try JSONValue.parse(files["consistency.json"]!)
        let element = try #require(proof["path"]?.arrayValue?.first?.stringValue)
        let flipped = String(element.prefix(63)) + (element.hasSuffix("0") ? "1" : "0")
        let root = Hex.encode(kept.checkpoint.root)
        let other = String(root.dropLast()) + (root.hasSuffix("0") ? "1" : "0")
        for (what, altered) in [("a proof element", changed("consistency.json", element, flipped)),
                                ("the kept root", changed("kept.txt", root, other)),
                                ("the event's amount", changed("inclusion.json", "\"type\"", "\"type\"").merging(
                                    ["inclusion.json": try Self.tamperedInclusion(files["inclusion.json"]!)]) { $1 })] {
            let refused = try Self.auditorScript(altered)
            #expect(refused.status != 0 && refused.output.contains("AssertionError"), "\(what): \(refused.output)")
        }
    }

    /// The inclusion answer with one byte of the event's canonical bytes changed.
    static func tamperedInclusion(_ body: [UInt8]) throws -> [UInt8] {
        var json = try JSONValue.parse(body)
        guard case .object(var object) = json, case .object(var event)? = object["event"],
              let canonical = event["canonical"]?.stringValue, var bytes = StrictBase64.decode(canonical, .standard) else {
            throw MerkleTree.ProofError.outOfRange("no event in the answer")
        }
        bytes[bytes.count / 2] ^= 0x01
        event["canonical"] = .string(StrictBase64.encode(bytes, .standard))
        object["event"] = .object(event)
        json = .object(object)
        return Array(json.compactText().utf8)
    }

    @Test("the rewrite-and-rehash attack: a superuser changes an old event and recomputes the chain and the tree; the log verifies on its own, but not against a checkpoint kept outside")
    func rewriteAttack() throws {
        let h = try Harness()
        _ = try h.f.adminJSON(["credit", "--pool", "payer:acme", "--source", "grant", "--amount", "1000", "--description", "d"])
        try h.grow(40, seed: 2)
        // The auditor keeps last month's checkpoint outside the database.
        let kept = try h.checkpoint()
        let keptText = kept.checkpoint.text, keptSignature = kept.signature
        try h.grow(25, seed: 3)
        let victim = try #require(try h.f.events().first { $0.type == "credit.posted" })

        // As a superuser: triggers off, the credit made larger, every hash from there recomputed.
        let superuser = try h.f.db.connect()
        try superuser.query("SET session_replication_role = replica")
        try superuser.query("UPDATE events SET data = jsonb_set(data, '{amount}', '\"999000\"') WHERE position = $1", [victim.position])
        try superuser.query("""
            DO $$
            DECLARE r record; previous bytea;
            BEGIN
              SELECT hash INTO previous FROM events WHERE position = \(victim.position - 1);
              FOR r IN SELECT position FROM events WHERE position >= \(victim.position) ORDER BY position LOOP
                UPDATE events e SET prev_hash = previous, hash = sha256(previous || event_canonical_bytes(e)) WHERE e.position = r.position
                  RETURNING e.hash INTO previous;
              END LOOP;
            END $$
            """)
        try superuser.query("SET session_replication_role = origin")
        // The chain alone no longer tells: it verifies.
        #expect(try h.f.pool.read { try ChainVerifier().verify(on: $0) }.isValid)
        // The tree rebuilt from the rewritten log (as a replay would).
        h.f.stopProjector()
        try ProjectionRebuilder(conninfo: h.f.db.projectorURL, log: { _, _, _ in }).rebuild([MerkleProjection()])
        h.f.startProjector()
        try h.settleTree()
        let leaves = try h.chainHashes()
        #expect(leaves[Int(victim.position) - 1] != victim.hash)

        // The checkpoint kept outside: its signature still checks, and the log no longer extends it.
        let outside = try #require(LogCheckpoint(text: keptText))
        #expect(Ed25519.verify(publicKey: h.key.publicKey, message: Array(keptText.utf8), signature: keptSignature))
        let now = try #require(try MerkleReadModel(connections: h.f.pool).treeSize())
        let consistency = try h.get("/v1/log/proofs/consistency?from=\(outside.size)&to=\(now)", key: h.auditorKey)
        let path = try #require(consistency.json["path"]?.arrayValue).compactMap { Self.hex($0) }
        let toRoot = try #require(Self.hex(consistency.json["to_root"]))
        #expect(toRoot == ReferenceMerkle.mth(leaves.prefix(Int(now))[...]))
        #expect(!MerkleTree.verifyConsistency(from: outside.size, to: now, fromRoot: outside.root, toRoot: toRoot, proof: path),
                "the rewritten log must not prove consistent with the checkpoint kept outside")
        // The rewritten tree is consistent with itself, which is why only the outside copy catches it.
        let fromRoot = try #require(Self.hex(consistency.json["from_root"]))
        #expect(MerkleTree.verifyConsistency(from: outside.size, to: now, fromRoot: fromRoot, toRoot: toRoot, proof: path))
        // And the checkpoint the log itself holds no longer matches its tree.
        let audit = h.f.audit(["checkpoint", "--position", "\(kept.position)"])
        #expect(audit.status != 0 && audit.errors.contains("root differs"), "\(audit.output) \(audit.errors)")
    }

    @Test("checkpoints across a replay: the rebuilt tree and checkpoints are the same rows, and the next checkpoint proves consistent with the earlier ones")
    func acrossReplay() throws {
        let h = try Harness(partitionSize: 100)
        try h.grow(130, seed: 4)
        let first = try h.checkpoint()
        try h.grow(77, seed: 5)
        let second = try h.checkpoint()
        try h.settleTree()
        let before = try h.f.pool.read { conn in
            try ["blocks", "frontier", "checkpoints"].map { try ProjectionSchema.checksum(schema: "proj_merkle", table: $0, on: conn) }
        }
        h.f.stopProjector()
        try ProjectionRebuilder(conninfo: h.f.db.projectorURL, batchSize: 37, log: { _, _, _ in }).rebuild([MerkleProjection()])
        let after = try h.f.pool.read { conn in
            try ["blocks", "frontier", "checkpoints"].map { try ProjectionSchema.checksum(schema: "proj_merkle", table: $0, on: conn) }
        }
        #expect(before == after, "a rebuild in batches of 37 gives the same rows as the live fold")
        h.f.startProjector()
        try h.grow(3, seed: 6)
        let third = try h.checkpoint()
        let model = MerkleReadModel(connections: h.f.pool)
        for (a, b) in [(first, second), (second, third), (first, third)] {
            let proof = try model.consistencyProof(from: a.checkpoint.size, to: b.checkpoint.size)
            #expect(MerkleTree.verifyConsistency(from: a.checkpoint.size, to: b.checkpoint.size, fromRoot: a.checkpoint.root,
                                                 toRoot: b.checkpoint.root, proof: proof.path))
        }
        // Nothing new but the last checkpoint: none is due, however long one waits.
        h.clock.advance(seconds: 7_200)
        #expect(try h.checkpointer.tick() == nil)
    }

    @Test("checkpoints across a PostgreSQL restart: the checkpointer and the tree go on where they were, and stay consistent")
    func acrossRestart() throws {
        let cluster = try TestCluster()
        defer { cluster.destroy() }
        let db = try TestDatabase.create(cluster: cluster.url)
        let pool = PostgresPool(conninfo: db.writerURL, maximumConnections: 2)
        let store = EventStore(conninfo: db.writerURL, connections: pool)
        defer { store.close() }
        var projector: ProjectorThread? = ProjectorThread(url: db.projectorURL, projections: [MerkleProjection()])
        let key = Ed25519SigningKey()
        let clock = ManualClock("2026-12-01T10:00:00Z")
        let checkpointer = Checkpointer(configuration: .init(key: key, origin: "ledger.test", policy: .init(events: 1, seconds: 60), now: clock.read),
                                        store: store, connections: pool, isActive: { true }, log: { _, _, _ in })
        func append(_ n: Int) throws {
            _ = try store.append(AppendRequest(events: (0..<n).map { _ in
                EventToAppend(stream: "restart", type: "test.leaf", data: [:], metadata: EventMetadata(actor: Actor(.system, "tests")))
            }))
        }
        func settle() throws {
            let head = try store.log.headPosition()
            try #require(Poll.until(timeout: 30) { ((try? MerkleReadModel(connections: pool).treeSize()) ?? nil) ?? 0 >= head })
        }
        try append(50)
        try settle()
        let first = try #require(try checkpointer.tick())
        try settle()
        try cluster.restart()
        // The next look after the restart may meet a broken connection; then it succeeds.
        try append(30)
        try settle()
        clock.advance(seconds: 1)
        var second: Int64?
        #expect(Poll.until(timeout: 20) { second = try? checkpointer.tick(); return second != nil })
        try settle()
        projector?.stop()
        projector = nil
        let model = MerkleReadModel(connections: pool)
        let secondPosition = try #require(second)
        let a = try #require(try model.checkpoint(at: first)), b = try #require(try model.checkpoint(at: secondPosition))
        #expect(a.checkpoint.size == 50 && b.checkpoint.size == 81)
        let proof = try model.consistencyProof(from: a.checkpoint.size, to: b.checkpoint.size)
        #expect(MerkleTree.verifyConsistency(from: 50, to: 81, fromRoot: a.checkpoint.root, toRoot: b.checkpoint.root, proof: proof.path))
        pool.closeIdle()
        db.drop()
    }
}
