extension WriteQueueContract {
    /// Q8 capped backoff keeps identity. Every request for op-1 gets a 503 until the measured
    /// delay has sat at the declared cap twice. Each delay, measured on the manual clock from
    /// the answer to the next request, must be positive, non-decreasing and at most the cap,
    /// and must reach it; every retry carries the same key and body.
    static func cappedBackoff<A>(_ h: QueueHarness<A>) async throws {
        guard let cap = h.capabilities.backoffCap else { return }
        try await h.launch()
        let operation = h.operation(1)
        let stored = try await h.submit(operation)
        var send = try await h.nextSend(of: operation)
        let firstKey = send.request.idempotencyKey
        var delays: [Duration] = []
        var atCap = 0
        var flatBelowCap = 0
        // Retries are free on the manual clock: a slowly growing backoff (linear steps to a
        // five-minute cap) gets as many as it needs, up to a bound that only an endless one hits.
        for _ in 0..<512 {
            h.answer(send, .server(.answer(status: 503)))
            let answeredAt = h.clock.now
            send = try await h.nextSend(of: operation)
            let delay = answeredAt.duration(to: h.clock.now)
            let previous = delays.last
            delays.append(delay)
            h.recorder.record("retry #\(delays.count) of op-1 after \(ManualClock.format(delay))")
            let measured = delays.map(ManualClock.format).joined(separator: ", ")
            if delay <= .zero {
                throw h.violation(
                    "Expected retry #\(delays.count) of op-1 to wait a positive delay, but it was sent "
                        + "at once.",
                    expected: "a delay > 0", actual: "delays so far: \(measured)",
                    hint: "Schedule the retry on the injected clock with a backoff delay.")
            }
            if let previous, delay < previous {
                throw h.violation(
                    "Expected retry delays never to decrease, but retry #\(delays.count) waited "
                        + "\(ManualClock.format(delay)) after \(ManualClock.format(previous)).",
                    expected: "non-decreasing delays", actual: "delays: \(measured)",
                    hint: "Grow the delay with the attempt count, and keep it at the cap.")
            }
            if delay > cap {
                throw h.violation(
                    "Expected every retry delay to stay within the declared cap of "
                        + "\(ManualClock.format(cap)), but retry #\(delays.count) waited "
                        + "\(ManualClock.format(delay)).",
                    expected: "delays ≤ \(ManualClock.format(cap))", actual: "delays: \(measured)",
                    hint: "Clamp the backoff: min(cap, base × 2^attempt).")
            }
            try h.expect(
                send, carries: firstKey, body: operation.body, of: operation,
                "waiting to keep op-1's key and body",
                hint: "Backoff changes when a task is sent, never what is sent.")
            atCap = delay == cap ? atCap + 1 : 0
            flatBelowCap = delay < cap && delay == previous ? flatBelowCap + 1 : 0
            if atCap == 2 || flatBelowCap == 3 { break }
        }
        guard atCap == 2 else {
            let last = delays.last.map(ManualClock.format) ?? "none"
            throw h.violation(
                "Expected the retry delay to reach the declared cap of \(ManualClock.format(cap)), "
                    + (flatBelowCap == 3
                        ? "but it stopped growing at \(last)."
                        : "but after \(delays.count) retries it was still growing (last \(last))."),
                expected: "a delay of \(ManualClock.format(cap))",
                actual: "delays: " + delays.map(ManualClock.format).joined(separator: ", "),
                hint: flatBelowCap == 3
                    ? "Declare the cap the queue really uses (QueueCapabilities.backoffCap)."
                    : "The delay must reach the cap in a bounded number of retries.")
        }
        let task = try await h.persistedTask(for: operation)
        if let stored, let task, !h.identityChanges(from: stored, to: task).isEmpty {
            throw h.violation(
                "Expected waiting never to change op-1's identity, but the stored task changed.",
                expected: stored.description, actual: task.description,
                difference: h.identityChanges(from: stored, to: task).map { "~ \($0)" }.joined(separator: "\n"),
                hint: "Backoff changes when a task is sent, never what is sent.")
        }
        h.answer(send, .serve)
        try await h.drive { _ in .serve }
    }
}
