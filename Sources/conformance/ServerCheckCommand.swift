import ConformanceKit
import Foundation
import IdempotencyServer
import ServerContracts

/// `conformance check-server --url http://127.0.0.1:8081 [--profile P] [--json]`: runs S1–S5 against
/// a running server and prints one line per contract (passed, failed or skipped, with the
/// failure message). S5 is skipped against a URL: the command cannot restart someone else's
/// server. `--local [--mode MODE] [--profile P]` instead starts the kit's own fault server on a free loopback
/// port with a temporary journal, and checks all five, restarting it for S5.
///
/// - Parameter arguments: The arguments after the program name; a leading `check-server` is
///   ignored, so both `["check-server", "--url", …]` and `["--url", …]` work.
/// - Returns: The exit status: 0 when no contract failed, 1 when one did, 2 for bad arguments.
func runServerCheck(arguments: [String]) async -> Int32 {
    let parsed: ParsedArguments
    do {
        parsed = try ParsedArguments(arguments.drop { $0 == "check-server" }, for: serverCheckSubcommand)
    } catch {
        return CommandLineSyntax.fail(error, serverCheckSubcommand)
    }
    func fail(_ message: String) -> Int32 {
        CommandLineSyntax.fail(UsageError(description: message), serverCheckSubcommand)
    }
    if parsed.isSet("--help") {
        print(serverCheckSubcommand.usage)
        return 0
    }
    var url: URL?
    if let text = parsed.value("--url") {
        guard let parsedURL = URL(string: text), parsedURL.scheme == "http", parsedURL.host != nil else {
            return fail("--url needs an http:// URL with a host")
        }
        url = parsedURL
    }
    var mode = FaultMode.commitThen503
    if let text = parsed.value("--mode") {
        guard let parsedMode = FaultMode(rawValue: text) else {
            if text == "ietf" { return fail("\"ietf\" is a profile, not a mode: use --profile ietf-draft (with any --mode)") }
            return fail("--mode needs one of \(FaultMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        mode = parsedMode
    }
    var profile = ConflictProfile.sourceDocument
    if let text = parsed.value("--profile") {
        guard let parsedProfile = ConflictProfile(rawValue: text) else {
            return fail("--profile needs one of \(ConflictProfile.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        profile = parsedProfile
    }
    let json = parsed.isSet("--json")
    let local = parsed.isSet("--local")
    var reports: [ContractReport] = []
    if local {
        guard url == nil else { return fail("give either --url or --local, not both") }
        do {
            let server = try LocalFaultServer(mode: mode, profile: profile)
            url = server.baseURL
            for contract in ServerContract.all {
                reports.append(await contract.run(against: server.baseURL, profile: profile, restart: server.restart))
            }
            await server.stop()
        } catch {
            FileHandle.standardError.write(Data("conformance check-server: \(error)\n".utf8))
            return 1
        }
    } else {
        guard let url else { return fail("--url or --local is required") }
        for contract in ServerContract.all {
            reports.append(await contract.run(against: url, profile: profile))
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
        let object: [String: Any] = ["server": url.absoluteString, "profile": profile.rawValue, "contracts": entries]
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

/// `conformance check-server`'s synopsis, summary and options.
let serverCheckSubcommand = Subcommand(
    name: "check-server",
    synopsis: [
        "check-server --url http://127.0.0.1:8081 [--profile source-document|ietf-draft] [--json]",
        "check-server --local [--mode commit-then-503|commit-then-drop|always-succeed] [--profile source-document|ietf-draft] [--json]",
    ],
    summary: """
        S1–S5 over HTTP against a running server by URL (S5 is skipped: the command cannot restart
        someone else's server), or against the kit's own fault server started on a free loopback
        port with a temporary journal (all five, restarting it for S5).
        """,
    options: [
        CommandOption("--url", value: .text("URL"), help: "the server's base URL (http://host:port)"),
        CommandOption(
            "--profile", value: .text("PROFILE"),
            help: "what the conflict answers mean: source-document (default, 409 for a reused key with another body) or ietf-draft (422; 409 while a key is being processed); the local server runs it too"),
        CommandOption("--local", help: "start the kit's own fault server and check it"),
        CommandOption("--mode", value: .text("MODE"), help: "the local server's fault mode (default commit-then-503)"),
        CommandOption("--json", help: "one JSON object with every contract's outcome and transcript"),
    ])
