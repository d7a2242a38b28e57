import ConformanceKit
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real binary, killed for real: SIGKILL loses no acknowledged record, SIGTERM stops cleanly.
@Suite("fault-server process", .enabled(if: ChildServer.isBuilt, "needs the built fault-server binary (swift build)"))
struct ProcessTests {
    /// Counts acknowledged requests and kills the child once, at the moment the count is reached.
    final class Killer: Sendable {
        private let state = Locked(rawValue: (acknowledged: [String](), killed: false))
        let child: ChildServer
        let threshold: Int

        init(child: ChildServer, threshold: Int) {
            self.child = child
            self.threshold = threshold
        }

        func acknowledge(_ key: String) {
            let kill: Bool = state.withLock { state in
                state.acknowledged.append(key)
                guard !state.killed, state.acknowledged.count >= threshold else { return false }
                state.killed = true
                return true
            }
            if kill { child.send(SIGKILL) }
        }

        var keys: [String] { state.withLock { $0.acknowledged } }
    }

    @Test("kill -9 under load loses no acknowledged record")
    func killNineKeepsAcknowledgedRecords() async throws {
        let journal = try temporaryDirectory().appendingPathComponent("journal.jsonl")
        let child = try await ChildServer(arguments: ["--journal", journal.path])
        let killer = Killer(child: child, threshold: 60)
        // 8 clients, each sending up to 20 new keys one after another; the kill lands while
        // requests are in flight, wherever they are.
        await withTaskGroup(of: Void.self) { group in
            for client in 0..<8 {
                group.addTask {
                    for index in 0..<20 {
                        let key = "c\(client)-\(index)"
                        let answer = await RawHTTP.post(key: key, body: #"{"n":\#(index)}"#, port: child.port)
                        guard answer.status == 503 else { return }  // refused or cut: the server is gone
                        killer.acknowledge(key)
                    }
                }
            }
        }
        let status = await child.waitForExit()
        #expect(status == SIGKILL)
        let acknowledged = killer.keys
        #expect(acknowledged.count >= 60)

        let restarted = try await ChildServer(arguments: ["--journal", journal.path])
        for key in acknowledged {
            let index = key.split(separator: "-").last!
            let replay = await RawHTTP.post(key: key, body: #"{"n":\#(index)}"#, port: restarted.port)
            #expect(replay.status == 200, "acknowledged key \(key) was lost: \(replay)")
        }
        restarted.send(SIGTERM)
        #expect(await restarted.waitForExit() == 0)
    }

    @Test("SIGTERM lets the server finish and exit 0")
    func sigtermStopsCleanly() async throws {
        let journal = try temporaryDirectory().appendingPathComponent("journal.jsonl")
        let child = try await ChildServer(arguments: ["--journal", journal.path, "--mode", "always-succeed"])
        #expect(child.firstLine == "listening on 127.0.0.1:\(child.port)")
        #expect(await RawHTTP.post(key: "k", body: "{}", port: child.port).status == 201)
        child.send(SIGTERM)
        #expect(await child.waitForExit() == 0)
        let output = child.remainingOutput()
        #expect(output.contains("journal \(journal.path): 0 record(s) replayed"))
        #expect(output.hasSuffix("stopped\n"))
        let after = await RawHTTP.post(key: "k", body: "{}", port: child.port)
        #expect(after.refused)
    }
}
