import ConformanceKit

/// Every implementation bundled under `Conformance/`: the references, the sample adopters and
/// the mutants, each with its ledger. The `conformance` command and `swift test` run them all.
public enum BundledImplementations {
    /// Every bundled implementation, pagers first.
    public static var all: [ImplementationUnderCheck] { pagers + queues }
}
