/// Which page a request asks for: a page number or a cursor.
public enum PagePosition: Hashable, Sendable, CustomStringConvertible {
    /// A 1-based page number.
    case page(Int)
    /// A cursor; `nil` asks for the first page.
    case cursor(String?)

    public var description: String {
        switch self {
        case .page(let number): "page \(number)"
        case .cursor(nil): "no cursor"
        case .cursor(let cursor?): "cursor \"\(cursor)\""
        }
    }
}
