import ConformanceKit

extension PagerContract {
    /// P10: a cursor that does not advance while the server says "more" stops automatic
    /// loading with a protocol error. Recommended part: a cursor that repeats an earlier one.
    static let cursorStall = PagerContract("P10", requires: .init(cursors: true)) { t in
        let hint = hint("P10")
        try await t.loadFirstPage(rows: [1, 2, 3])
        let a2 = try await t.requestNextPage(2, after: "bottom reached after page 1")
        guard case .cursor(let requested) = a2.position else { return }
        let chained = try await t.deliver(
            a2, rows: [4, 5, 6], hasMore: true, cursor: .fixed(requested), followUps: .returned)
        try t.expectNoRequest(
            chained, after: "the answer that returned the requested cursor",
            because: "the response returned the requested cursor \(requested ?? "nil") and "
                + "still said hasMore", hint: hint)
        for attempt in 1...2 {
            try t.expectNoRequest(
                try await t.bottomReached(), after: "bottom reached after the cursor stalled (\(attempt))",
                because: "the response returned the requested cursor \(requested ?? "nil") and "
                    + "still said hasMore", hint: hint)
        }
        try await t.expectState(
            \.hasProtocolError, true, named: "the protocol-error state",
            after: "the cursor stalled", hint: hint)

        // The first page's request carries no cursor: a response that returns none with
        // hasMore: true returns the requested cursor too. A stall check written as
        // `if let requested = ticket.cursor, next == requested` skips it and asks for the first
        // page again forever.
        t.section("a first page that returns the cursor it was requested with (none)")
        let fresh = try await t.newGeneration(query: "B")
        guard case .cursor(let firstCursor) = fresh.position else { return }
        let stalledFirst = "the first page of query B returned the requested cursor "
            + "\(firstCursor ?? "nil") and still said hasMore"
        let chainedOnFirst = try await t.deliver(
            fresh, rows: [201, 202, 203], hasMore: true, cursor: .fixed(firstCursor), followUps: .returned)
        try t.expectNoRequest(
            chainedOnFirst, after: "the first page that returned the requested cursor",
            because: stalledFirst, hint: hint)
        for attempt in 1...2 {
            try t.expectNoRequest(
                try await t.bottomReached(),
                after: "bottom reached after the first page's cursor stalled (\(attempt))",
                because: stalledFirst, hint: hint)
        }
        try await t.expectStopShown(after: "the first page's cursor stalled", hint: hint)

        t.section("recommended: a cursor that repeats an earlier cursor of the same query")
        guard t.capabilities.detectsCursorCycles else {
            t.skipCheck(
                "the recommended cycle part",
                because: "the adapter declares no cycle detection (detectsCursorCycles: false)")
            return
        }
        let cycleHint = "Remember every cursor requested in the current query and treat a repeat "
            + "as a protocol error (A, B, A is a cycle that a same-cursor check misses)."
        let b1 = try await t.newGeneration(query: "C")
        try await t.acceptPage(
            b1, rows: [101, 102], visible: [101, 102], after: "the new first page arrived")
        let b2 = try await t.requestNextPage(2, after: "bottom reached on the new first page")
        try await t.acceptPage(
            b2, rows: [103, 104], visible: [101, 102, 103, 104], after: "its page 2 arrived")
        let b3 = try await t.requestNextPage(3, after: "bottom reached after its page 2")
        guard case .cursor(let earlier) = b2.position else { return }
        t.tier = .recommended
        let cycled = try await t.deliver(
            b3, rows: [105, 106], hasMore: true, cursor: .fixed(earlier), followUps: .returned)
        try t.expectNoRequest(
            cycled + (try await t.bottomReached()),
            after: "the cursor cycled back and the bottom was reached",
            because: "cursor \(earlier ?? "nil") was already requested in this query",
            hint: cycleHint)
    }
}
