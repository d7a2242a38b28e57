import ConformanceKit
import Foundation

extension ContractCell {
    /// The title of a contract case: `P4 late stale response`,
    /// `SeedPager · P4 late stale response`, or `P9 … (not applicable: reason)`.
    struct Title {
        let subject: String?
        let contract: String
        let name: String
        let notApplicable: String?

        init?(_ text: String) {
            var rest = Substring(text)
            var subject: String?
            if let separator = rest.range(of: " · ") {
                subject = String(rest[..<separator.lowerBound])
                rest = rest[separator.upperBound...]
            }
            guard let space = rest.firstIndex(of: " ") else { return nil }
            let id = rest[..<space]
            guard let letter = id.first, "PQS".contains(letter), id.count > 1,
                id.dropFirst().allSatisfy(\.isNumber)
            else {
                return nil
            }
            var name = String(rest[rest.index(after: space)...])
            var reason: String?
            if name.hasSuffix(")"), let open = name.range(of: " (not applicable: ") {
                reason = String(name[open.upperBound...].dropLast())
                name = String(name[..<open.lowerBound])
            }
            // Only the kit's own contracts, by ID and name: a team's test whose argument merely
            // starts like one stays under "Other tests".
            guard ContractCatalog.all.contains(where: { $0.id.rawValue == id && $0.name == name }) else {
                return nil
            }
            self.subject = subject
            contract = String(id)
            self.name = name
            notApplicable = reason
        }
    }
}
