import ConformanceKit
import Foundation
import IdempotencyServer
import Testing

/// The journal: replayed at start, torn tails dropped, damage refused, reset honoured.
@Suite("Journal")
struct JournalTests {
    @Test("a restarted server answers the original result and counts records across runs")
    func replayAfterRestart() async throws {
        let journal = try temporaryDirectory().appendingPathComponent("journal.jsonl")
        let server = try RestartableServer(loopback(journal: journal))
        #expect(await RawHTTP.post(key: "k1", body: #"{"title":"a"}"#, port: server.port).status == 503)
        #expect(await RawHTTP.post(key: "k2", body: #"{"title":"b"}"#, port: server.port).status == 503)
        try await server.restart()
        #expect(server.current.replayedRecordCount == 2)
        let replay = await RawHTTP.post(key: "k1", body: #"{"title":"a"}"#, port: server.port)
        #expect(replay.status == 200)
        #expect(replay.body == #"{"id":1,"attempts":1,"record_count":2}"#)
        #expect(await RawHTTP.post(key: "k2", body: #"{"title":"x"}"#, port: server.port).status == 409)
        #expect(await RawHTTP.post(key: "k3", body: #"{"title":"c"}"#, port: server.port).status == 503)
        let third = await RawHTTP.post(key: "k3", body: #"{"title":"c"}"#, port: server.port)
        await server.stop()
        #expect(third.body == #"{"id":3,"attempts":2,"record_count":3}"#)
    }

    @Test("appends flushed together (group commit) each survive a restart")
    func concurrentAppendsSurvive() async throws {
        let journal = try temporaryDirectory().appendingPathComponent("journal.jsonl")
        let server = try RestartableServer(loopback(journal: journal))
        let statuses = await withTaskGroup(of: Int?.self, returning: [Int?].self) { group in
            for index in 0..<100 {
                group.addTask { await RawHTTP.post(key: "k\(index)", body: #"{"n":\#(index)}"#, port: server.port).status }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 503 })
        let before = server.current.records
        try await server.restart()
        let after = server.current.records
        await server.stop()
        #expect(after == before)
        #expect(Set(after.map(\.id)) == Set(1...100))
        let lines = try String(contentsOf: journal, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 100)
    }

    @Test("a torn last line (a write cut by a crash) is dropped and the file repaired")
    func tornTailIsDropped() async throws {
        let journal = try temporaryDirectory().appendingPathComponent("journal.jsonl")
        let good = #"{"body":{"title":"a"},"id":1,"key":"k1"}"# + "\n" + #"{"body":{"title":"b"},"id":2,"key":"k2"}"# + "\n"
        try Data((good + #"{"body":{"ti"#).utf8).write(to: journal)
        let server = try RestartableServer(loopback(journal: journal))
        #expect(server.current.replayedRecordCount == 2)
        #expect(server.current.droppedJournalTailBytes == #"{"body":{"ti"#.utf8.count)
        #expect(try Data(contentsOf: journal) == Data(good.utf8))
        #expect(await RawHTTP.post(key: "k3", body: #"{"title":"c"}"#, port: server.port).status == 503)
        try await server.restart()
        let records = server.current.records
        await server.stop()
        #expect(records.map(\.key) == ["k1", "k2", "k3"])
        #expect(records.map(\.id) == [1, 2, 3])
    }

    @Test("an unreadable complete last line is a torn write too")
    func garbledLastLineIsDropped() async throws {
        let journal = try temporaryDirectory().appendingPathComponent("journal.jsonl")
        let good = #"{"body":{"title":"a"},"id":1,"key":"k1"}"# + "\n"
        try Data((good + "\u{0}\u{0}\u{0}\n").utf8).write(to: journal)
        let server = try FaultServer.start(loopback(journal: journal))
        #expect(server.replayedRecordCount == 1)
        #expect(server.droppedJournalTailBytes == 4)
        await server.stop()
    }

    @Test("damage before the tail stops the server from starting, naming the line")
    func damageInTheMiddleIsRefused() throws {
        let journal = try temporaryDirectory().appendingPathComponent("journal.jsonl")
        let text = #"{"body":{"title":"a"},"id":1,"key":"k1"}"# + "\nnot a record\n"
            + #"{"body":{"title":"b"},"id":2,"key":"k2"}"# + "\n"
        try Data(text.utf8).write(to: journal)
        let error = #expect(throws: FaultServer.StartError.self) { try FaultServer.start(loopback(journal: journal)) }
        #expect(error?.description.contains("damaged at line 2") == true)
    }

    @Test("a line with an impossible record ID is damage, not a crash")
    func impossibleIDIsRefused() throws {
        let journal = try temporaryDirectory().appendingPathComponent("journal.jsonl")
        let text = #"{"body":1,"id":1e300,"key":"x"}"# + "\n" + #"{"body":{"title":"b"},"id":2,"key":"k2"}"# + "\n"
        try Data(text.utf8).write(to: journal)
        let error = #expect(throws: FaultServer.StartError.self) { try FaultServer.start(loopback(journal: journal)) }
        #expect(error?.description.contains("damaged at line 1") == true)
    }

    @Test("POST /reset clears memory and the journal only when allowed")
    func resetClearsJournal() async throws {
        let journal = try temporaryDirectory().appendingPathComponent("journal.jsonl")
        let server = try RestartableServer(loopback(journal: journal, allowReset: true))
        _ = await RawHTTP.post(key: "k1", body: #"{"title":"a"}"#, port: server.port)
        let reset = await RawHTTP.send([Array("POST /reset HTTP/1.1\r\nConnection: close\r\n\r\n".utf8)], to: server.port)
        #expect(reset.status == 200)
        #expect(server.current.records.isEmpty)
        try await server.restart()
        #expect(server.current.replayedRecordCount == 0)
        #expect(await RawHTTP.post(key: "k1", body: #"{"title":"b"}"#, port: server.port).status == 503)
        await server.stop()
    }

    @Test("GET /records and /records/<key> show records and attempt counts")
    func observationEndpoints() async throws {
        let server = try RestartableServer(loopback())
        _ = await RawHTTP.post(key: "k 1", body: #"{"title":"a"}"#, port: server.port)
        _ = await RawHTTP.post(key: "k 1", body: #"{"title":"a"}"#, port: server.port)
        let all = await RawHTTP.send([Array("GET /records HTTP/1.1\r\nConnection: close\r\n\r\n".utf8)], to: server.port)
        let one = await RawHTTP.send([Array("GET /records/k%201 HTTP/1.1\r\nConnection: close\r\n\r\n".utf8)], to: server.port)
        let none = await RawHTTP.send([Array("GET /records/zzz HTTP/1.1\r\nConnection: close\r\n\r\n".utf8)], to: server.port)
        await server.stop()
        #expect(all.body == #"{"attempts":{"k 1":2},"record_count":1,"records":[{"attempts":2,"body":{"title":"a"},"id":1,"key":"k 1"}]}"#)
        #expect(one.body == #"{"attempts":2,"body":{"title":"a"},"id":1,"key":"k 1"}"#)
        #expect(none.status == 404)
    }

    @Test("command-line flags parse, and bad ones are named")
    func arguments() throws {
        let configuration = try ServerConfiguration(arguments: [
            "--port", "0", "--mode", "commit-then-drop", "--profile", "ietf-draft", "--journal", "/tmp/j",
            "--allow-reset", "--idle-timeout", "5",
        ])
        #expect(configuration.port == 0)
        #expect(configuration.mode == .commitThenDrop)
        #expect(configuration.profile == .ietfDraft)
        #expect(ServerConfiguration().profile == .sourceDocument)
        #expect(configuration.journalPath == "/tmp/j")
        #expect(configuration.allowReset)
        #expect(configuration.idleTimeout == .seconds(5))
        #expect(configuration.host == "127.0.0.1")
        #expect(ServerConfiguration().port == 8081)
        let error = #expect(throws: ServerConfiguration.ArgumentError.self) {
            try ServerConfiguration(arguments: ["--mode", "chaos"])
        }
        #expect(error?.description.contains("unknown mode \"chaos\"") == true)
        // The profile's old spelling as a mode says where it went.
        let moved = #expect(throws: ServerConfiguration.ArgumentError.self) {
            try ServerConfiguration(arguments: ["--mode", "ietf"])
        }
        #expect(moved?.description.contains("--profile ietf-draft") == true)
    }
}
