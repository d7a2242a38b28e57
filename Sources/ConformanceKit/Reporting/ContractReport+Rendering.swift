extension ContractReport {
    /// The report of one violation as a bug report: the contract and its rule, expected
    /// versus actual, the difference, the timeline up to the failing step and a hint.
    ///
    /// ```text
    /// P4 late stale response: Expected nothing to change after the late answer to request #2
    /// (page 2 of query A), saying hasMore false, while page 2 of B loads, but the visible items
    /// changed and loading changed from true to false and hasMore changed from true to false.
    ///   Rule: After the query changes (filter switch), a response to any request issued …
    ///   Subject: PagerWhoseTicketIsThePageNumber
    ///   Expected state: visible [101, 102], loading true, hasMore true, error false
    ///   Actual   state: visible [101, 102, 103, 104], loading false, hasMore false, error false
    ///   Difference (- expected, + actual):
    ///     + 103  (position 3 shown)
    ///     + 104  (position 4 shown)
    ///   Timeline (up to the failing step):
    ///       1. bottom reached → request #1 (page 1 of query A)
    ///       …
    ///     ▶ 8. answer request #2 (page 2 of query A) [stale: issued under query A, gen 0]: rows [103, 104], hasMore false
    ///   Hint: Compare the response's whole ticket (generation and page, or cursor) with the …
    /// ```
    package func message(for violation: Violation) -> String {
        var lines: [String] = []
        let label = switch violation.kind {
        case .contract: contract.title
        case .adapterError: "\(contract.title) — adapter error"
        case .watchdog: "\(contract.title) — not judged, the kit's watchdog fired"
        case .crash: "\(contract.title) — crashed"
        }
        // A summary that opens with the contract's title (the explorer's) is not titled twice.
        let titled = violation.kind == .contract && violation.summary.hasPrefix(contract.title)
        lines.append(titled ? violation.summary : "\(label): \(violation.summary)")
        lines.append("  Rule: \(contract.rule)")
        lines += evidence(of: violation)
        if let hint = violation.hint { lines.append("  Hint: \(hint)") }
        return lines.joined(separator: "\n")
    }

    /// The report of a blocked cell, titled with the blocking rule: that rule's text, the
    /// setup step that failed (expected versus actual), the timeline up to it, that rule's hint.
    ///
    /// ```text
    /// P1 duplicate bottom trigger (blocks P5 stale failure): Expected bottom reached while
    /// page 2 of query B loads to start no request (page 2 of query B is still in flight), but …
    ///   Blocked: P5 stale failure was not judged: reaching the state its rule is about needs
    ///   P1, which this implementation breaks. Fix P1 first.
    ///   Rule broken (P1): While a next-page request is in flight, further bottom triggers …
    ///   …
    /// ```
    package func blockedMessage(by blocker: ContractID, _ violation: Violation) -> String {
        let blocking = ContractCatalog.descriptor(blocker)
        let blockingTitle = blocking?.title ?? blocker.rawValue
        var lines: [String] = []
        lines.append("\(blockingTitle) (blocks \(contract.title)): \(violation.summary)")
        lines.append(
            "  Blocked: \(contract.title) was not judged: reaching the state its rule is about "
                + "needs \(blocker), which this implementation breaks. Fix \(blocker) first.")
        if let blocking { lines.append("  Rule broken (\(blocker)): \(blocking.rule)") }
        lines += evidence(of: violation)
        if let hint = violation.hint { lines.append("  Hint (\(blocker)): \(hint)") }
        return lines.joined(separator: "\n")
    }

    /// The lines a violation's message and a blocked cell's message share: the subject,
    /// expected versus actual, the difference and the timeline up to the failing step.
    private func evidence(of violation: Violation) -> [String] {
        var lines = ["  Subject: \(subject)"]
        if let expected = violation.expected { lines.append("  Expected \(expected)") }
        if let actual = violation.actual { lines.append("  Actual   \(actual)") }
        if let difference = violation.difference {
            lines.append("  Difference (- expected, + actual):")
            lines.append(contentsOf: difference.split(separator: "\n").map { "    \($0)" })
        }
        lines.append("  Timeline (up to the failing step):")
        lines.append(
            contentsOf: transcript.rendered(upTo: violation.step)
                .split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" })
        return lines
    }

    /// Every message this report carries: one per violation, or the blocked cell's message.
    public var messages: [String] {
        if case .blocked(let blocker, let violation) = outcome {
            return [blockedMessage(by: blocker, violation)]
        }
        return outcome.violations.map { message(for: $0) }
    }

    /// A one-line summary: the verdict and, for a failure, the first violation's summary.
    public var headline: String {
        switch outcome {
        case .blocked(let blocker, let violation):
            "\(contract.title): blocked by \(ContractCatalog.descriptor(blocker)?.title ?? blocker.rawValue): \(violation.summary)"
        case .passed:
            "\(contract.title): passed"
        case .notApplicable(let reason):
            "\(contract.title): not applicable: \(reason)"
        case .failed(let violations):
            if let summary = violations.first?.summary, summary.hasPrefix(contract.title) {
                summary
            } else {
                "\(contract.title): \(violations.first?.summary ?? "failed")"
            }
        }
    }

    /// The whole report as text: the headline, every violation, notes and the transcript.
    public var fullText: String {
        var parts = ["\(subject) — \(headline)"]
        parts += messages
        if !notes.isEmpty {
            parts.append("Notes:\n" + notes.map { "  - \($0)" }.joined(separator: "\n"))
        }
        parts.append("Transcript:\n" + transcript.rendered())
        return parts.joined(separator: "\n\n")
    }
}
