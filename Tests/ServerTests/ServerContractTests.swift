import ConformanceKit
import ConformanceTesting
import Foundation
import IdempotencyServer
import Testing

/// S1–S5 against the in-process fault server, in every fault mode under both conflict
/// profiles, with a journal so S5 can restart it; and proof that the checks bite when the
/// server breaks a rule.
@Suite("S contracts against the fault server")
struct ServerContractTests {
    @Test("every S contract passes in every mode and profile", arguments: FaultSetting.all, ServerContract.all)
    func contractPasses(setting: FaultSetting, contract: ServerContract) async throws {
        let directory = try temporaryDirectory()
        let server = try RestartableServer(
            loopback(
                mode: setting.mode, profile: setting.profile,
                journal: directory.appendingPathComponent("journal.jsonl")))
        await contract.check(against: server.baseURL, profile: setting.profile, restart: { try await server.restart() })
        await server.stop()
    }

    @Test("a server that says 422 fails S2 unless it declares the IETF profile")
    func undeclaredIETFProfileFailsS2() async throws {
        let server = try RestartableServer(loopback(profile: .ietfDraft))
        let report = await ServerContract.contract("S2")!.run(against: server.baseURL)
        await server.stop()
        let violation = try #require(report.outcome.violations.first)
        #expect(violation.summary.hasPrefix("Expected key s2-a-"))
        #expect(violation.summary.contains("to be rejected with 409, but it got 422"))
        #expect(violation.hint?.contains("profile: .ietfDraft") == true)
        #expect(report.message(for: violation).contains("▶"))
    }

    @Test("the seed profile's 409 fails S2 when the IETF profile is declared")
    func declaredIETFProfileRejects409() async throws {
        let server = try RestartableServer(loopback(mode: .commitThen503))
        let report = await ServerContract.contract("S2")!.run(against: server.baseURL, profile: .ietfDraft)
        await server.stop()
        let violation = try #require(report.outcome.violations.first)
        #expect(violation.summary.contains("to be rejected with 422, but it got 409"))
    }

    @Test("S5 fails when the restarted server forgot its records")
    func memoryOnlyServerFailsS5() async throws {
        let server = try RestartableServer(loopback(mode: .commitThen503, journal: nil))
        let report = await ServerContract.contract("S5")!.run(
            against: server.baseURL, restart: { try await server.restart() })
        await server.stop()
        let violation = try #require(report.outcome.violations.first)
        #expect(violation.summary.contains("to survive the restart, but a repeat after it got 503"))
        #expect(report.transcript.entries.contains { $0.text == "restart the server" })
    }

    @Test("S5 is not applicable without a restart closure, and says why")
    func s5WithoutRestartIsSkipped() async throws {
        let server = try RestartableServer(loopback())
        let report = await ServerContract.contract("S5")!.run(against: server.baseURL)
        await server.stop()
        guard case .notApplicable(let reason) = report.outcome else {
            Issue.record("Expected S5 to be not applicable without a restart closure, but it was \(report.outcome.word)")
            return
        }
        #expect(reason.contains("restart"))
    }

    @Test("an unreachable server is an adapter error, not a verdict")
    func unreachableServer() async throws {
        let reserved = RawHTTP.reserveUnlistenedPort()
        defer { RawHTTP.release(reserved.socket) }
        let url = URL(string: "http://127.0.0.1:\(reserved.port)")!
        let report = await ServerContract.contract("S1")!.run(against: url)
        let violation = try #require(report.outcome.violations.first)
        #expect(violation.kind == .adapterError)
        #expect(violation.summary.hasPrefix("Expected the server at \(url.absoluteString) to answer, but"))
    }

    @Test("transcripts show each exchange with its printed key and answer")
    func transcriptShowsExchanges() async throws {
        let server = try RestartableServer(loopback())
        let report = await ServerContract.contract("S1")!.run(against: server.baseURL)
        await server.stop()
        #expect(report.outcome == .passed)
        let steps = report.transcript.entries.map(\.text)
        #expect(steps.contains { $0.hasPrefix("POST /items key=s1-a-") && $0.hasSuffix(#"body {"title":"a"} → 503"#) })
        #expect(steps.contains { $0.contains(#"→ 200 {"id":1,"attempts":2,"record_count":1}"#) })
    }

    @Test("a non-http URL is refused with a clear message")
    func httpsURLIsRefused() async {
        let report = await ServerContract.contract("S1")!.run(against: URL(string: "https://example.com")!)
        #expect(report.outcome.violations.first?.summary.contains("Expected an http:// base URL") == true)
    }
}
