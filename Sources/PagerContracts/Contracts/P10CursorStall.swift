import ConformanceKit

extension PagerContract {
    /// P10: a cursor that does not advance while the server says "more" stops automatic
    /// loading with a protocol error. Recommended part: a cursor that repeats an earlier one.
    static let cursorStall = PagerContract("P10", requires: .init(cursors: true)) { t in
        let hint = "When an accepted response returns the cursor that was requested and still "
            + "says hasMore, record a protocol error and stop loading automatically; requesting "
            + "the same cursor again loops forever."
        let a1 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 1, after: "the first bottom trigger")
        try await t.deliver(a1, rows: [1, 2, 3], hasMore: true)
        let a2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached after page 1")
        guard case .cursor(let requested) = a2.position else { return }
        try await t.deliver(a2, rows: [4, 5, 6], hasMore: true, cursor: .fixed(requested))
        for attempt in 1...2 {
            try t.expectNoRequest(
                try await t.bottomReached(), after: "bottom reached after the cursor stalled (\(attempt))",
                because: "the response returned the requested cursor \(requested ?? "nil") and "
                    + "still said hasMore", hint: hint)
        }
        try await t.expectState(
            \.hasProtocolError, true, named: "the protocol-error state",
            after: "the cursor stalled", hint: hint)

        t.section("recommended: a cursor that repeats an earlier cursor of the same query")
        t.tier = .recommended
        let cycleHint = "Remember every cursor requested in the current query and treat a repeat "
            + "as a protocol error (A, B, A is a cycle that a same-cursor check misses)."
        let b1 = try await t.firstPageRequest(
            after: try await t.changeQuery(to: "B"), of: "the query change to B")
        try await t.deliver(b1, rows: [101, 102], hasMore: true)
        let b2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached on query B")
        try await t.deliver(b2, rows: [103, 104], hasMore: true)
        let b3 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 3, after: "bottom reached after page 2 of B")
        guard case .cursor(let earlier) = b2.position else { return }
        try await t.deliver(b3, rows: [105, 106], hasMore: true, cursor: .fixed(earlier))
        try t.expectNoRequest(
            try await t.bottomReached(), after: "bottom reached after the cursor cycled back",
            because: "cursor \(earlier ?? "nil") was already requested in this query",
            hint: cycleHint)
    }
}
