// `swift run fault-server`: the idempotency fault server on the command line.
//
// The first line of output is always `listening on HOST:PORT` (scripts read it to learn the
// port chosen by `--port 0`). SIGTERM and SIGINT stop it cleanly: requests being processed
// finish and answer, the journal is closed, and the process exits 0.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import IdempotencyServer

// Before any output: a reader that goes away (a script that read the first line) must not
// kill the server with SIGPIPE.
signal(SIGPIPE, SIG_IGN)

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(ServerConfiguration.usage)
    exit(0)
}

let configuration: ServerConfiguration
do {
    configuration = try ServerConfiguration(arguments: arguments)
} catch {
    FileHandle.standardError.write(Data("fault-server: \(error)\n\n\(ServerConfiguration.usage)\n".utf8))
    exit(2)
}

let server: FaultServer
do {
    server = try FaultServer.start(configuration)
} catch {
    FileHandle.standardError.write(Data("fault-server: \(error)\n".utf8))
    exit(1)
}

/// Writes one line to standard output, unbuffered (a script waits for the first line); a
/// closed output is ignored.
func say(_ line: String) {
    try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
}

say("listening on \(server.address)")
say("mode \(configuration.mode), profile \(configuration.profile): POST http://\(server.address)/items")
if let path = configuration.journalPath {
    var line = "journal \(path): \(server.replayedRecordCount) record(s) replayed"
    if server.droppedJournalTailBytes > 0 {
        line += ", \(server.droppedJournalTailBytes) byte(s) of torn tail dropped"
    }
    say(line)
} else {
    say("records in memory (use --journal PATH to keep them across restarts)")
}

let signalSources = [SIGTERM, SIGINT].map { number in
    signal(number, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
    source.setEventHandler {
        server.stop {
            say("stopped")
            exit(0)
        }
    }
    source.resume()
    return source
}
withExtendedLifetime(signalSources) {
    dispatchMain()
}
