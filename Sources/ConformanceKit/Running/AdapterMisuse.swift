/// An adapter mistake the kit detected, reported as an adapter error rather than a verdict on
/// the rule: fix the adapter, then the contract means something.
public struct AdapterMisuse: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in "Expected …, but …" form.
    public let summary: String
    /// How to fix the adapter.
    public let hint: String

    /// Creates a misuse report.
    public init(summary: String, hint: String) {
        self.summary = summary
        self.hint = hint
    }

    public var description: String { summary }
}
