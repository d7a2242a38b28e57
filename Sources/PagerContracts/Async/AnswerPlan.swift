import Foundation

/// The answers an `immediate` run gave right after the step that made each request, so an
/// `alreadyAvailable` run can hand them over at the moment the same request registers.
final class AnswerPlan: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [Int: (load: PageLoad, result: Result<PageResponse, any Error>)] = [:]

    func record(_ number: Int, load: PageLoad, result: Result<PageResponse, any Error>) {
        lock.withLock { answers[number] = (load, result) }
    }

    /// The answer for request `number`, if the plan has one for exactly this load.
    func answer(for number: Int, load: PageLoad) -> Result<PageResponse, any Error>? {
        lock.withLock {
            guard let planned = answers[number], planned.load == load else { return nil }
            return planned.result
        }
    }
}
