#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The built `fault-server` binary run as a child process, for the tests that need a real
/// `kill -9` or `SIGTERM`.
///
/// Every stored property is a constant, and `Process` and `Pipe` may be used from any
/// thread; they are not declared `Sendable` on every platform, hence `@unchecked`.
final class ChildServer: @unchecked Sendable {
    /// Where `swift build` put the binary: next to the test bundle.
    static var binary: URL {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = testBinary.deletingLastPathComponent()
        // On Apple platforms the test binary sits inside a .xctest bundle.
        while directory.path.contains(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("fault-server")
    }

    /// Whether the binary exists (`swift build` and `swift test` build it).
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    let process = Process()
    private let output = Pipe()
    private let exited: AsyncStream<Int32>
    private let exitContinuation: AsyncStream<Int32>.Continuation
    /// The port from the first line, `listening on 127.0.0.1:PORT`.
    let port: UInt16
    /// The first line of output.
    let firstLine: String

    /// Starts the binary with `arguments` (plus `--port 0`) and returns once it printed the
    /// line saying where it listens.
    init(arguments: [String]) async throws {
        (exited, exitContinuation) = AsyncStream.makeStream(of: Int32.self)
        process.executableURL = ChildServer.binary
        process.arguments = ["--port", "0"] + arguments
        process.standardOutput = output
        let continuation = exitContinuation
        process.terminationHandler = { process in
            continuation.yield(process.terminationStatus)
            continuation.finish()
        }
        try process.run()
        let handle = output.fileHandleForReading
        let line: String = await withCheckedContinuation { continuation in
            Thread {
                var bytes: [UInt8] = []
                while true {
                    let data = handle.readData(ofLength: 1)
                    if data.isEmpty || data.first == UInt8(ascii: "\n") { break }
                    bytes.append(contentsOf: data)
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }.start()
        }
        firstLine = line
        guard line.hasPrefix("listening on "), let port = line.split(separator: ":").last.flatMap({ UInt16($0) }) else {
            throw ChildError(description: "fault-server did not say where it listens; first line: \"\(line)\"")
        }
        self.port = port
    }

    /// Sends `signal` to the child.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the child to exit and returns its status (the signal number when killed).
    func waitForExit() async -> Int32 {
        for await status in exited { return status }
        return process.terminationStatus
    }

    /// The rest of the child's output, after it exited.
    func remainingOutput() -> String {
        String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    struct ChildError: Error, CustomStringConvertible {
        let description: String
    }
}
