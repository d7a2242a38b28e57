import ConformanceKit

extension ServerConfiguration {
    /// A command-line argument the server cannot use.
    package struct ArgumentError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What is wrong, in one line.
        package let description: String
    }

    /// The `fault-server` usage text.
    package static let usage = """
        usage: fault-server [--host ADDRESS] [--port N] [--mode MODE] [--profile PROFILE] [--journal PATH]
                            [--allow-reset] [--max-header-bytes N] [--max-body-bytes N]
                            [--idle-timeout SECONDS] [--max-connections N]

          --host ADDRESS        address to listen on (default 127.0.0.1; loopback only unless you say so)
          --port N              port (default 8081; 0 picks a free port, printed on the first line)
          --mode MODE           commit-then-503 (default), commit-then-drop, always-succeed
          --profile PROFILE     source-document (default: 409 for a reused key with another body)
                                or ietf-draft (422 for that, 409 while a key is being processed)
          --journal PATH        append-only journal: records survive restarts and kill -9
          --allow-reset         let POST /reset clear every record (403 otherwise)
          --max-header-bytes N  largest request head (default 16384; 431 above it)
          --max-body-bytes N    largest body (default 1048576; 413 above it)
          --idle-timeout S      seconds a connection may stay silent (default 30)
          --max-connections N   connections served at once (default 512)
        """

    /// Parses `fault-server` flags (without the program name).
    /// - Parameter arguments: The flags, such as `["--port", "0", "--profile", "ietf-draft"]`.
    /// - Throws: ``ArgumentError`` naming the first flag it cannot use.
    package init(arguments: [String]) throws {
        self.init()
        var remaining = arguments[...]
        func value(for flag: String) throws -> String {
            guard let value = remaining.popFirst() else {
                throw ArgumentError(description: "\(flag) needs a value")
            }
            return value
        }
        func number(for flag: String, in range: ClosedRange<Int>) throws -> Int {
            let text = try value(for: flag)
            guard let number = Int(text), range.contains(number) else {
                throw ArgumentError(description: "\(flag) needs a whole number in \(range), not \"\(text)\"")
            }
            return number
        }
        while let flag = remaining.popFirst() {
            switch flag {
            case "--host":
                host = try value(for: flag)
            case "--port":
                port = UInt16(try number(for: flag, in: 0...65535))
            case "--mode":
                let text = try value(for: flag)
                guard let parsed = FaultMode(rawValue: text) else {
                    guard text != "ietf" else {
                        throw ArgumentError(
                            description: "\"ietf\" is a profile, not a mode: use --profile ietf-draft (with any --mode)")
                    }
                    let known = FaultMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ArgumentError(description: "unknown mode \"\(text)\"; use one of \(known)")
                }
                mode = parsed
            case "--profile":
                let text = try value(for: flag)
                guard let parsed = ConflictProfile(rawValue: text) else {
                    let known = ConflictProfile.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ArgumentError(description: "unknown profile \"\(text)\"; use one of \(known)")
                }
                profile = parsed
            case "--journal":
                journalPath = try value(for: flag)
            case "--allow-reset":
                allowReset = true
            case "--max-header-bytes":
                maxHeaderBytes = try number(for: flag, in: 256...(64 * 1024 * 1024))
            case "--max-body-bytes":
                maxBodyBytes = try number(for: flag, in: 1...(1024 * 1024 * 1024))
            case "--idle-timeout":
                idleTimeout = .seconds(try number(for: flag, in: 1...86_400))
            case "--max-connections":
                maxConnections = try number(for: flag, in: 1...100_000)
            default:
                throw ArgumentError(description: "unknown flag \"\(flag)\"")
            }
        }
    }
}
