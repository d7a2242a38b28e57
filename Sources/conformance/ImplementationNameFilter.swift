/// What `--implementation NAME` selects: the implementation named exactly NAME when there is
/// one, else every implementation whose name contains NAME.
///
/// Bundled mutants are often named after their adopter (`WorkOrderOutbox` and
/// `BuggyWorkOrderOutbox`), so a plain substring match ran the mutant too when a team asked for
/// the adopter alone.
struct ImplementationNameFilter {
    let text: String?

    /// The elements of `candidates` the filter keeps, in their order.
    func select<Candidate>(_ candidates: [Candidate], name: (Candidate) -> String) -> [Candidate] {
        guard let text else { return candidates }
        let exact = candidates.filter { name($0) == text }
        return exact.isEmpty ? candidates.filter { name($0).contains(text) } : exact
    }

    /// The help line both commands print for the option.
    static let help = "only the implementation named NAME, or, if none is, those whose name contains NAME"
}
