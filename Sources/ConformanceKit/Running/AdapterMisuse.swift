/// An adapter mistake the kit detected, reported as an adapter error rather than a verdict on
/// the rule: fix the adapter, then the contract means something.
package struct AdapterMisuse: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, in "Expected …, but …" form.
    package let summary: String
    /// How to fix the adapter.
    package let hint: String

    /// Creates a misuse report.
    package init(summary: String, hint: String) {
        self.summary = summary
        self.hint = hint
    }

    package var description: String { summary }
}
