import ConformanceKit

/// The opt-in differential check: the same steps on a reference, the same visible list.
extension ScheduleExecution {
    /// Applies `step` to the reference and compares what the user sees. The comparison ends
    /// (silently) once the two start different requests: from there on the same step means
    /// different things to them, as with a pager that loads on a query change and one that
    /// waits for the next trigger, both conforming.
    func compareWithReference(_ step: PagerSchedule.Step) async throws {
        guard let shadow else { return }
        do {
            try await shadow.apply(step)
        } catch {
            self.shadow = nil
            return
        }
        guard shadow.requests.map(\.position) == requests.map(\.position) else {
            self.shadow = nil
            return
        }
        guard shadow.state.visible != state.visible else { return }
        let wanted = shadow.state.visible
        throw visibleListFailure(
            "I3",
            "Expected the same visible list as the reference \(shadowName), \(Self.list(wanted)), but it is \(state.visibleList) (differential check).",
            wanted: wanted, from: shadowName,
            hint: "The reference saw the same triggers and answers and started the same requests; compare how each accepts and appends a page.")
    }
}
