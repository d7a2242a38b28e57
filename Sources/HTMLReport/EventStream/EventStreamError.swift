/// Why an event stream cannot become a report page: which line, what was wrong, and what the
/// reader expected there. No page is written when reading fails.
public struct EventStreamError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line the problem is on, or `nil` for the stream as a whole (an empty file).
    public let line: Int?
    /// What is wrong, such as `the line is cut short`.
    public let problem: String
    /// What the reader expected instead.
    public let expected: String

    /// Creates an error.
    public init(line: Int?, problem: String, expected: String) {
        self.line = line
        self.problem = problem
        self.expected = expected
    }

    /// `line 12: the line is cut short …; expected …`.
    public var description: String {
        (line.map { "line \($0): " } ?? "") + problem + "; expected " + expected
    }
}
