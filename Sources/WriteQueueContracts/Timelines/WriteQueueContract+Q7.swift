extension WriteQueueContract {
    /// Q7 single sender. Two sending passes start together on one instance (foreground resume
    /// and background sync); while either has a request parked, no task may have two requests
    /// in flight. With shared storage declared, two instances over one storage are checked too.
    static func singleSender<A>(_ h: QueueHarness<A>) async throws {
        try await h.launch()
        let first = h.operation(1)
        let second = h.operation(2)
        try await h.submit(first)
        try await h.submit(second)
        try h.startPass()
        try h.startPass()
        try await driveCheckingSingleSender(h)

        guard h.capabilities.sharesStorageBetweenInstances else {
            h.recorder.note("Storage is not declared shared: only two passes on one instance were checked.")
            return
        }
        let appInstance = h.currentInstance
        let extensionInstance = try await h.launch(alongside: true)
        let third = h.operation(3)
        try await h.submit(third, on: appInstance)
        try h.startPass(on: appInstance)
        try h.startPass(on: extensionInstance)
        try await driveCheckingSingleSender(h)
    }

    /// Answers every request (success), checking after every settle that no task has two
    /// requests in flight.
    private static func driveCheckingSingleSender<A>(_ h: QueueHarness<A>) async throws {
        for _ in 0..<32 {
            try await h.settle("both passes to return, park a request, or wait on the clock")
            let open = h.openSends
            var byOperation: [String: [ParkedSend]] = [:]
            for send in open { byOperation[h.operationLabel(for: send.request.body), default: []].append(send) }
            if let (label, twice) = byOperation.first(where: { $0.value.count > 1 }) {
                throw h.violation(
                    "Expected at most one request for \(label) in flight, but \(twice.count) were "
                        + "in flight at once.",
                    expected: "1 request for \(label)",
                    actual: twice.map { "send #\($0.number) (\(h.stage.label(of: $0.trigger)))" }
                        .joined(separator: ", "),
                    hint: "Take a send lease for the task (in the persistence layer when instances "
                        + "share storage) before sending, and skip leased tasks.")
            }
            if let send = open.first {
                h.answer(send, .serve)
            } else if h.running.isEmpty || !h.advanceToNextWake() {
                return
            }
        }
        throw h.violation(
            "Expected two passes over a few tasks to finish within 32 steps, but they kept going.",
            expected: "every pass returned", actual: "\(h.running.count) trigger(s) still running",
            hint: "Check that a completed task is never sent again.")
    }
}
