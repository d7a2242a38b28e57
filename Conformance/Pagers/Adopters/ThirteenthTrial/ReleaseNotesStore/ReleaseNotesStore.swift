import Foundation
import Observation

/// Runs `ReleaseNotesFeature`: reduces actions on the main actor and runs their effects.
///
/// `send(_:)` returns the effect's task (like TCA's `StoreTask`) so callers such as
/// `.refreshable { await store.send(.pulledToRefresh)?.value }` can wait for it.
@Observable
@MainActor
final class ReleaseNotesStore {
    private(set) var state: ReleaseNotesFeature.State

    @ObservationIgnored private let api: any ReleaseNotesAPI
    @ObservationIgnored private var runningFetch: Task<Void, Never>?

    init(initialState: ReleaseNotesFeature.State = .init(), api: any ReleaseNotesAPI) {
        self.state = initialState
        self.api = api
    }

    @discardableResult
    func send(_ action: ReleaseNotesFeature.Action) -> Task<Void, Never>? {
        let effect = ReleaseNotesFeature.reduce(into: &state, action: action)
        guard let operation = effect.operation else { return nil }
        if effect.cancelsInFlight {
            runningFetch?.cancel()
        }
        let api = self.api
        let send: ReleaseNotesFeature.Effect.Send = { [weak self] action in
            await self?.send(action)
        }
        let task = Task {
            await operation(api, send)
        }
        if effect.fetch != nil {
            runningFetch = task
        }
        return task
    }
}
