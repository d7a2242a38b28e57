/// The stable identifier of a rule in the contract catalogue, such as `P4` or `Q3`.
///
/// IDs are public API: test names, reports, expected-failure ledgers and users' bug reports
/// use them. They are never renumbered; a retired rule keeps its ID.
public struct ContractID: Hashable, Comparable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The ID as written in the catalogue (`"P4"`).
    public let rawValue: String

    /// Creates an ID from its catalogue spelling.
    /// - Parameter rawValue: The ID, such as `"P4"`.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The family letter (`P`, `Q`, `S` or `I`).
    public var family: Character? { rawValue.first }

    /// The number after the family letter, used to sort `P2` before `P10`.
    public var number: Int { Int(rawValue.dropFirst()) ?? 0 }

    public var description: String { rawValue }

    public static func < (lhs: ContractID, rhs: ContractID) -> Bool {
        if lhs.family != rhs.family {
            return String(lhs.family ?? " ") < String(rhs.family ?? " ")
        }
        return lhs.number < rhs.number
    }
}
