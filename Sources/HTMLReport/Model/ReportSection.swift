/// One labelled part of a cell's or a finding's details: the rule, the expected state, the
/// timeline, the hint, a regression test.
package struct ReportSection: Hashable, Sendable {
    /// How the page shows a section.
    package enum Style: String, Hashable, Sendable {
        /// Prose.
        case text
        /// Preformatted lines (states, differences, timelines); a line starting with `▶` is
        /// the failing step and is marked.
        case lines
        /// Code with a copy button (a regression test, a schedule).
        case code
    }

    /// The label, such as `Rule` or `Timeline (up to the failing step)`.
    package let title: String
    /// The content.
    package let body: String
    /// How to show it.
    package let style: Style

    /// Creates a section.
    package init(_ title: String, _ body: String, style: Style = .text) {
        self.title = title
        self.body = body
        self.style = style
    }
}
