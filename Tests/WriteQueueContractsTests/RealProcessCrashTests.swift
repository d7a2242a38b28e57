#if compiler(>=6.2) && (os(macOS) || os(Linux) || os(Windows))
import BundledImplementations
import ConformanceKit
import Foundation
import ReferenceImplementations
import Testing
import WriteQueueContracts

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real crash: a child process runs the file-backed reference queue and is killed with
/// SIGKILL in the middle of a send; the parent relaunches from the directory the child left and
/// checks the replay against the kit's idempotency ledger.
@Suite("Real process crash")
struct RealProcessCrashTests {
    @Test(
        "A child killed with SIGKILL mid-send leaves a task the relaunch replays with the same key",
        arguments: [true, false])
    func killedMidSend(serverCommitted: Bool) async throws {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("write-queue-crash-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = root.path

        await #expect(processExitsWith: .signal(SIGKILL)) { [dir = dir as String, serverCommitted = serverCommitted as Bool] in
            let root = URL(fileURLWithPath: dir)
            let queue = try FileWriteQueue(
                directory: root.appendingPathComponent("tasks"),
                transport: KillingTransport(
                    received: root.appendingPathComponent("server-received.json"),
                    commitsFirst: serverCommitted),
                clock: KitQueueClock(clock: ManualClock()))
            try await queue.submit(operationID: "op-1", body: Data(#"{"title":"Ticket 1"}"#.utf8))
            try await queue.runSendingPass()
        }

        let tasks = root.appendingPathComponent("tasks")
        let stored = try FileWriteQueue.storedTasks(in: tasks)
        try #require(stored.count == 1, "the task must survive the kill")
        let ledger = IdempotencyLedger()
        let receivedFile = root.appendingPathComponent("server-received.json")
        if serverCommitted {
            let received = try JSONDecoder().decode(KillingTransport.Received.self, from: Data(contentsOf: receivedFile))
            #expect(received.key == stored[0].key)
            // The server committed the write; its 503 (or anything) never reached the dead child.
            let first = ledger.receive(
                WriteRequest(idempotencyKey: received.key, body: received.body), fault: .commitThen503)
            #expect(first.committed?.id == 1)
        } else {
            #expect(!FileManager.default.fileExists(atPath: receivedFile.path))
        }

        let sent = Locked(rawValue: [String]())
        let relaunched = try FileWriteQueue(
            directory: tasks, transport: LedgerTransport(ledger: ledger, sent: sent),
            clock: KitQueueClock(clock: ManualClock()))
        try await relaunched.runSendingPass()

        #expect(sent.rawValue == [stored[0].key])
        #expect(ledger.recordCount == 1)
        #expect(ledger.attempts(forKey: stored[0].key) == (serverCommitted ? 2 : 1))
        #expect(try FileWriteQueue.storedTasks(in: tasks).isEmpty, "the original result completes the task")
    }
}

#endif
