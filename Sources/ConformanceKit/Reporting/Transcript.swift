/// The numbered steps of one contract run, in the order the kit performed them.
///
/// A failure message shows the transcript up to the failing step; the Swift Testing bridge
/// attaches the whole of it.
public struct Transcript: Hashable, Sendable, CustomStringConvertible {
    /// One step: what the kit did and what it saw.
    public struct Entry: Hashable, Sendable {
        /// The 1-based step number.
        public let number: Int
        /// What happened, such as `bottom reached → request #2: page 2 (query A)`.
        public let text: String
    }

    /// Every step recorded so far.
    public private(set) var entries: [Entry] = []

    /// Creates an empty transcript.
    package init() {}

    /// Appends a step.
    /// - Parameter text: What happened.
    /// - Returns: The step's number.
    @discardableResult
    package mutating func record(_ text: String) -> Int {
        entries.append(Entry(number: entries.count + 1, text: text))
        return entries.count
    }

    /// Replaces every step after `step` with one step saying `text`: a stretch that showed
    /// nothing wrong (rounds of a check repeated to catch a race), summed up in one line.
    /// - Returns: How many steps it removed.
    @discardableResult
    package mutating func collapse(after step: Int, into text: String) -> Int {
        let kept = min(max(step, 0), entries.count)
        let removed = entries.count - kept
        entries.removeSubrange(kept...)
        record(text)
        return removed
    }

    /// The steps up to and including `step`, one per line, the last one marked with `▶`.
    /// - Parameter step: The failing step, or `nil` to render every step unmarked.
    public func rendered(upTo step: Int? = nil) -> String {
        let shown = step.map { last in entries.filter { $0.number <= last } } ?? entries
        guard !shown.isEmpty else { return "  (no steps were taken)" }
        let width = String(shown.count).count
        return shown.map { entry in
            let number = String(repeating: " ", count: width - String(entry.number).count)
                + String(entry.number)
            let marker = entry.number == step ? "▶" : " "
            return "\(marker) \(number). \(entry.text)"
        }.joined(separator: "\n")
    }

    public var description: String { rendered() }
}
