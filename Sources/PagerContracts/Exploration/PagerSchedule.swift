import ConformanceKit

/// A schedule of pager events, the explorer's unit of work and the replay format of its
/// regression tests.
///
/// The pager starts on query `"A"`. Triggers fire UI events; answers refer to requests by
/// their number, in the order the pager started them (1 for the first). After every step the
/// kit checks the exploration invariants I1–I6 against what the user sees.
///
/// ```swift
/// let schedule: PagerSchedule = [
///     .bottomReached,
///     .deliver(request: 1, rows: [1], hasMore: false),
///     .bottomReached,
/// ]
/// let report = await schedule.run(against: MyPagerAdapter.self)
/// ```
///
/// A step that cannot apply when it comes (an answer to a request that was never started, a
/// trigger the adapter does not declare) is skipped and noted in the transcript.
public struct PagerSchedule: Hashable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// The steps, in order.
    public var steps: [Step]

    /// Creates a schedule.
    public init(_ steps: [Step]) {
        self.steps = steps
    }

    public init(arrayLiteral elements: Step...) {
        self.init(elements)
    }

    /// The schedule as a Swift array literal, one step per line.
    public var description: String { swiftLiteral(indent: "") }

    /// The schedule as a Swift array literal: `[\n    .bottomReached,\n]`.
    /// - Parameter indent: The indentation of the closing bracket.
    package func swiftLiteral(indent: String) -> String {
        RegressionTestSource.arrayLiteral(steps.map(\.swiftCode), indent: indent)
    }
}
