extension WriteQueueContract {
    /// Q7 single sender. Two sending passes start together on one instance (foreground resume
    /// and background sync); while either has a request parked, no task may have two requests
    /// in flight. Then, with a request still in flight, the clock moves to just inside the
    /// declared request timeout (past any shorter send lease) and a later sync starts a third
    /// pass: it must not send that task again either. With shared storage declared, two
    /// instances over one storage are checked too, the second one starting after the clock moved.
    static func singleSender<A>(_ h: QueueHarness<A>) async throws {
        try await h.launch()
        let first = h.operation(1)
        let second = h.operation(2)
        try await h.submit(first)
        try await h.submit(second)
        try h.startPass()
        try h.startPass()
        try await laterSyncWhileInFlight(h, on: nil)
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
        try await laterSyncWhileInFlight(h, on: extensionInstance)
        try await driveCheckingSingleSender(h)
    }

    /// With a request in flight, moves the clock to 9/10 of the declared request timeout and
    /// starts a sending pass on `instance` (the latest when `nil`), as a later sync would.
    private static func laterSyncWhileInFlight<A>(_ h: QueueHarness<A>, on instance: Int?) async throws {
        try await h.settle("the passes to return, park a request, or wait on the clock")
        let timeout = h.capabilities.requestTimeout
        guard let inFlight = h.openSends.first else {
            if let instance { try h.startPass(on: instance) }
            return
        }
        let moved = timeout - timeout / 10
        try h.advanceClock(by: moved)
        h.recorder.record(
            "advance clock by \(ManualClock.format(moved)) while send #\(inFlight.number) is in flight "
                + "(within the declared request timeout of \(ManualClock.format(timeout)))")
        try h.startPass(on: instance, label: "later sync's sending pass")
    }

    /// Answers every request (success), checking after every settle that no task has two
    /// requests in flight.
    private static func driveCheckingSingleSender<A>(_ h: QueueHarness<A>) async throws {
        for _ in 0..<32 {
            try await h.settle("both passes to return, park a request, or wait on the clock")
            let open = h.openSends
            var byOperation: [String: [ParkedSend]] = [:]
            for send in open { byOperation[h.operationLabel(for: send.request.body), default: []].append(send) }
            // The operation whose doubled send came first, so the message is the same on every
            // run (a dictionary's order is not).
            if let (label, twice) = byOperation.filter({ $0.value.count > 1 })
                .min(by: { $0.value[1].number < $1.value[1].number })
            {
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
            } else if try h.running.isEmpty || !h.advanceToNextWake() {
                return
            }
        }
        throw h.violation(
            "Expected two passes over a few tasks to finish within 32 steps, but they kept going.",
            expected: "every pass returned", actual: "\(h.running.count) trigger(s) still running",
            hint: "Check that a completed task is never sent again.")
    }
}
