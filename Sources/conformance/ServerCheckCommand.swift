import ConformanceKit
import Foundation
import IdempotencyServer
import ServerContracts

/// `conformance check-server --url http://127.0.0.1:8081 [--ietf] [--json]`: runs S1–S5 against
/// a running server and prints one line per contract (passed, failed or skipped, with the
/// failure message). S5 is skipped against a URL: the command cannot restart someone else's
/// server. `--local [--mode MODE]` instead starts the kit's own fault server on a free loopback
/// port with a temporary journal, and checks all five, restarting it for S5.
///
/// - Parameter arguments: The arguments after the program name; a leading `check-server` is
///   ignored, so both `["check-server", "--url", …]` and `["--url", …]` work.
/// - Returns: The exit status: 0 when no contract failed, 1 when one did, 2 for bad arguments.
func runServerCheck(arguments: [String]) async -> Int32 {
    var remaining = arguments[...]
    if remaining.first == "check-server" { remaining = remaining.dropFirst() }
    var url: URL?
    var ietf = false
    var json = false
    var local = false
    var mode = FaultMode.commitThen503
    let usage = """
        usage: conformance check-server --url http://127.0.0.1:8081 [--ietf] [--json]
               conformance check-server --local [--mode commit-then-503|commit-then-drop|always-succeed|ietf] [--json]
        """
    func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("conformance check-server: \(message)\n\(usage)\n".utf8))
        return 2
    }
    while let argument = remaining.popFirst() {
        switch argument {
        case "--url":
            guard let text = remaining.popFirst(), let parsed = URL(string: text), parsed.scheme == "http",
                parsed.host != nil
            else { return fail("--url needs an http:// URL with a host") }
            url = parsed
        case "--ietf":
            ietf = true
        case "--json":
            json = true
        case "--local":
            local = true
        case "--mode":
            guard let text = remaining.popFirst(), let parsed = FaultMode(rawValue: text) else {
                return fail("--mode needs one of \(FaultMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            mode = parsed
        case "--help", "-h":
            print(usage)
            return 0
        default:
            return fail("unknown argument \"\(argument)\"")
        }
    }
    var reports: [ContractReport] = []
    if local {
        guard url == nil else { return fail("give either --url or --local, not both") }
        do {
            let server = try LocalFaultServer(mode: mode)
            url = server.baseURL
            ietf = mode.isIETFProfile
            for contract in ServerContract.all {
                reports.append(await contract.run(against: server.baseURL, ietf: ietf, restart: server.restart))
            }
            await server.stop()
        } catch {
            FileHandle.standardError.write(Data("conformance check-server: \(error)\n".utf8))
            return 1
        }
    } else {
        guard let url else { return fail("--url or --local is required") }
        for contract in ServerContract.all {
            reports.append(await contract.run(against: url, ietf: ietf))
        }
    }
    guard let url else { return 1 }
    if json {
        let entries = reports.map { report -> [String: Any] in
            var entry: [String: Any] = [
                "id": report.contract.id.rawValue, "name": report.contract.name, "outcome": report.outcome.word,
            ]
            if case .notApplicable(let reason) = report.outcome { entry["reason"] = reason }
            if let blocker = report.outcome.blockedBy { entry["blockedBy"] = blocker.rawValue }
            let messages = report.messages
            if !messages.isEmpty { entry["messages"] = messages }
            entry["transcript"] = report.transcript.entries.map(\.text)
            return entry
        }
        let object: [String: Any] = ["server": url.absoluteString, "ietf": ietf, "contracts": entries]
        if let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) {
            print(String(decoding: data, as: UTF8.self))
        }
    } else {
        for report in reports {
            switch report.outcome {
            case .passed:
                print("\(report.contract.title): passed")
            case .notApplicable(let reason):
                print("\(report.contract.title): skipped (\(reason))")
            case .failed(let violations):
                print("\(report.contract.title): failed")
                for violation in violations {
                    print(report.message(for: violation).split(separator: "\n").map { "    \($0)" }.joined(separator: "\n"))
                }
            case .blocked(let blocker, let violation):
                print("\(report.contract.title): blocked by \(blocker)")
                print(report.blockedMessage(by: blocker, violation).split(separator: "\n").map { "    \($0)" }.joined(separator: "\n"))
            }
        }
    }
    return reports.contains { $0.hasErrors(strict: false) } ? 1 : 0
}
