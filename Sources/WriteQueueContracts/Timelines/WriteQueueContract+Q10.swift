extension WriteQueueContract {
    /// The canary value of the sensitive body field: it must never appear in a diagnostic.
    static let sensitiveCanary = "4111-CANARY-7f3c9e1a"

    /// A short sensitive value (a CVV's length): a redactor that shows the last four
    /// characters, as a payment sheet shows a card number, shows it whole. Its `~` never occurs
    /// in a key, a UUID, a date or Base64, so no other text matches it.
    static let shortSensitiveCanary = "7~Q3"

    /// A sensitive value sent as a JSON number, as apps send a PIN or a CVV: a redactor that
    /// masks only string values logs it (the twenty-first trial's `GiftCardRedemptions`).
    static let numericSensitiveCanary = 739_154_826

    /// Whether `line` shows `numericSensitiveCanary` as a number of its own (not inside a
    /// longer run of digits).
    static func showsNumericCanary(_ line: String) -> Bool {
        let digits = String(numericSensitiveCanary)
        var rest = line[...]
        while let range = rest.range(of: digits) {
            let before = range.lowerBound == line.startIndex ? nil : line[line.index(before: range.lowerBound)]
            let after = range.upperBound == line.endIndex ? nil : line[range.upperBound]
            if !(before?.isNumber ?? false), !(after?.isNumber ?? false) { return true }
            rest = line[range.upperBound...]
        }
        return false
    }

    /// Q10 no sensitive data in diagnostics. Three operations carry a canary value in every
    /// field the adapter declares sensitive (``QueueCapabilities/sensitiveFields``, `card` by
    /// default) and meet a 503 then success, a body conflict, and a 400 whose message quotes
    /// the rejected values, and a fourth keeps
    /// failing for a day, so the queue has every reason to log and to store diagnostics; none
    /// may contain a canary. op-3's canary is four characters long, as a CVV or a PIN is: a
    /// redactor that keeps the last four characters visible shows it whole (the sixteenth
    /// trial's `DonationPledgeQueue`). op-2's is a JSON number, as a PIN often is.
    static func noSensitiveDiagnostics<A>(_ h: QueueHarness<A>) async throws {
        try await h.launch()
        let fields = h.capabilities.sensitiveFields.sorted()
        let operations = (1...3).map { number in
            if number == 2 {
                return h.operation(
                    number, numbers: fields.map { ($0, numericSensitiveCanary) },
                    sensitive: h.capabilities.sensitiveFields)
            }
            let canary = number == 3 ? shortSensitiveCanary : sensitiveCanary
            return h.operation(
                number, extra: fields.map { ($0, canary) }, sensitive: h.capabilities.sensitiveFields)
        }
        for operation in operations { try await h.submit(operation) }
        var first: Set<String> = []
        try h.startPass()
        try await h.drive(judgingEndlessSending: false) { send in
            let label = h.operationLabel(for: send.request.body)
            defer { first.insert(label) }
            guard !first.contains(label) else { return .serve }
            switch label {
            case "op-1": return .server(.answer(status: 503))
            case "op-2": return .server(.conflictingRecord)
            // A validation error quotes the value it rejects: a queue that stores or logs the
            // server's message whole leaks it (the twentieth trial's `PayrollUploadCenter`
            // kept it verbatim "so HR support sees what the server said").
            default:
                return .rejected(
                    status: 400,
                    quoting: Dictionary(uniqueKeysWithValues: h.capabilities.sensitiveFields.map { ($0, shortSensitiveCanary) }))
            }
        }
        // A task that keeps failing for a day: queues report those ("stuck since …"), and that
        // report must be redacted too (the fifteenth trial's redacted only its default fields).
        let stuck = h.operation(4, extra: h.sensitiveExtras, sensitive: h.capabilities.sensitiveFields)
        try await h.submit(stuck)
        try h.startPass()
        let firstTry = try await h.nextSend(of: stuck)
        h.answer(firstTry, .server(.answer(status: 503)))
        try await h.settle()
        try h.advanceClock(by: .seconds(25 * 3600), recording: "advance clock by 25 h (op-4 still pending)")
        try h.startPass()
        if let retry = try await h.sendIfAny(of: stuck) {
            h.answer(retry, .server(.answer(status: 503)))
            try await h.settle()
        }
        let lines = try await h.diagnostics()
        h.recorder.record("read \(lines.count) diagnostic and log line(s)")
        let leaking = lines.filter {
            $0.contains(sensitiveCanary) || $0.contains(shortSensitiveCanary) || showsNumericCanary($0)
        }
        guard leaking.isEmpty else {
            throw h.violation(
                "Expected no diagnostic or log line to contain a sensitive value ("
                    + h.capabilities.sensitiveFields.sorted().joined(separator: ", ") + "), but "
                    + "\(leaking.count) did.",
                expected: "no line containing \(sensitiveCanary) (op-1, op-4), \(numericSensitiveCanary) (op-2, a number) "
                    + "or \(shortSensitiveCanary) (op-3)",
                actual: leaking.prefix(3).joined(separator: "\n")
                    + (leaking.count > 3 ? "\n(and \(leaking.count - 3) more)" : ""),
                hint: "Log the operation ID, key, status and byte count, never the body; redact the "
                    + "fields QueueOperation.sensitiveFields names.")
        }
    }
}
