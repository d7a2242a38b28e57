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

    /// What the transcript says on the step that found the mistake, so that the failing step
    /// shows in the timeline and the message below it explains it.
    package static let stepNote = "an adapter error (see the message)"
}
