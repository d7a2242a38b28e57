/// A request the pager started, as the timeline recorded it.
package struct PageRequestRecord: Hashable, Sendable, CustomStringConvertible {
    /// The request's number in the timeline, from 1.
    package let number: Int
    /// The kit's query when the request started.
    package let query: String
    /// How many query changes and refreshes had happened when it started.
    package let generation: Int
    /// What the pager asked for.
    package let position: PagePosition
    /// The page the request asks for, resolved from its page number or cursor; `nil` for a
    /// cursor the kit never issued.
    package let page: Int?
    /// Where a cursor came from, when it came from another query or generation.
    let cursorOrigin: String?

    /// `request #3 (page 2 of query A)`.
    package var description: String {
        let what = page.map { "page \($0) of query \(query)" } ?? "an unknown page of query \(query)"
        switch position {
        case .page:
            return "request #\(number) (\(what))"
        case .cursor:
            let origin = cursorOrigin.map { ", \($0)" } ?? ""
            return "request #\(number) (\(position), \(what)\(origin))"
        }
    }
}
