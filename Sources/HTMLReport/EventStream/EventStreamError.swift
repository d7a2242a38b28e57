/// Why an event stream cannot become a report page: which line, what was wrong, and what the
/// reader expected there. No page is written when reading fails.
package struct EventStreamError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The 1-based line the problem is on, or `nil` for the stream as a whole (an empty file).
    package let line: Int?
    /// What is wrong, such as `the line is cut short`.
    package let problem: String
    /// What the reader expected instead.
    package let expected: String

    /// Creates an error.
    package init(line: Int?, problem: String, expected: String) {
        self.line = line
        self.problem = problem
        self.expected = expected
    }

    /// `line 12: the line is cut short …; expected …`.
    package var description: String {
        (line.map { "line \($0): " } ?? "") + problem + "; expected " + expected
    }
}
