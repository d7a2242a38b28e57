import ConformanceKit
import Foundation
import IdempotencyServer
import Testing

/// One key sent by many clients at once makes exactly one record, in every mode and profile.
@Suite("Concurrent clients")
struct ConcurrencyTests {
    @Test("50 concurrent requests with one key create exactly one record", arguments: FaultSetting.all)
    func concurrentSameKey(setting: FaultSetting) async throws {
        let server = try RestartableServer(loopback(mode: setting.mode, profile: setting.profile))
        let answers = await withTaskGroup(of: RawHTTP.Answer.self, returning: [RawHTTP.Answer].self) { group in
            for _ in 0..<50 {
                group.addTask { await RawHTTP.post(key: "same", body: #"{"title":"a"}"#, port: server.port) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let records = server.current.records
        let attempts = server.current.attempts
        await server.stop()
        #expect(records.count == 1)
        #expect(attempts["same"] == 50)
        // Under the IETF draft a duplicate of a key still being processed gets 409.
        let allowed: Set<Int?> = setting.profile == .ietfDraft ? [200, 201, 409, 503, nil] : [200, 201, 503, nil]
        #expect(answers.allSatisfy { allowed.contains($0.status) }, "\(answers.map(\.status))")
        let firsts = answers.filter { $0.status == 503 || $0.status == 201 || ($0.status == nil && !$0.refused) }
        #expect(firsts.count == 1, "exactly one request is the first receipt")
    }

    @Test("many keys from many connections, with keep-alive, all land once")
    func manyKeysKeepAlive() async throws {
        let server = try RestartableServer(loopback(mode: .alwaysSucceed))
        // 20 connections, each sending 10 requests on one keep-alive connection (pipelined).
        let answers = await withTaskGroup(of: RawHTTP.Answer.self, returning: [RawHTTP.Answer].self) { group in
            for connection in 0..<20 {
                group.addTask {
                    var text = ""
                    for index in 0..<10 {
                        text += RawHTTP.request(key: "c\(connection)-\(index)", body: #"{"n":\#(index)}"#, close: index == 9)
                    }
                    return await RawHTTP.send([Array(text.utf8)], to: server.port)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let records = server.current.records
        await server.stop()
        #expect(records.count == 200)
        #expect(Set(records.map(\.id)) == Set(1...200))
        for answer in answers {
            #expect(answer.statuses == Array(repeating: 201, count: 10), "\(answer)")
        }
    }
}
