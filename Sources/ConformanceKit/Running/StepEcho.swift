import Foundation

/// The steps of a run written to standard error as they happen, one line each, for a parent
/// process that must know how far a child got before it trapped.
///
/// Off unless the environment sets `CONFORMANCE_ECHO_STEPS=1`; the `conformance` command sets it
/// in the child that reruns a cell which crashed, and reads the lines back with ``parse(_:)``.
package enum StepEcho {
    /// The environment variable that turns the echo on.
    package static let environmentVariable = "CONFORMANCE_ECHO_STEPS"

    /// What starts every echoed line, so it never mixes with a subject's own output.
    package static let prefix = "\u{1E}conformance-step "

    /// Writes one step (unbuffered, so it survives a trap right after).
    static func write(step: Int, _ text: String) {
        let oneLine = text.replacingOccurrences(of: "\n", with: " ⏎ ")
        FileHandle.standardError.write(Data("\(prefix)\(step). \(oneLine)\n".utf8))
    }

    /// The step texts (numbers stripped) from a child's standard error, in order; other lines
    /// are left out. A step whose number is not past the last one replaces the steps from that
    /// number on, as ``Transcript/collapse(after:into:)`` did in the child.
    package static func parse(_ standardError: String) -> [String] {
        var steps: [String] = []
        for line in standardError.split(separator: "\n") where line.hasPrefix(prefix) {
            let rest = line.dropFirst(prefix.count)
            guard let dot = rest.firstIndex(of: "."), let number = Int(rest[..<dot]) else {
                steps.append(String(rest))
                continue
            }
            if number >= 1, number <= steps.count { steps.removeSubrange((number - 1)...) }
            steps.append(
                String(rest[rest.index(after: dot)...].dropFirst()).replacingOccurrences(of: " ⏎ ", with: "\n"))
        }
        return steps
    }
}
