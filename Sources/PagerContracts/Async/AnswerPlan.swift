import ConformanceKit

/// The answers an `immediate` run gave right after the step that made each request, so an
/// `alreadyAvailable` run can hand them over at the moment the same request registers.
final class AnswerPlan: Sendable {
    private let answers = Locked<[Int: (load: PageLoad, result: Result<PageResponse, any Error>)]>(
        rawValue: [:])

    func record(_ number: Int, load: PageLoad, result: Result<PageResponse, any Error>) {
        answers.withLock { $0[number] = (load, result) }
    }

    /// The answer for request `number`, if the plan has one for exactly this load.
    func answer(for number: Int, load: PageLoad) -> Result<PageResponse, any Error>? {
        answers.withLock { answers in
            guard let planned = answers[number], planned.load == load else { return nil }
            return planned.result
        }
    }
}
