/// The engine of the conformance kit.
///
/// `ConformanceKit` holds what every family of contracts shares: the catalogue of rules
/// (``ContractCatalog``), the reports a run produces (``ContractReport``), the expected-failure
/// ledgers of bundled implementations (``Ledger``) and the watchdog (``withWatchdog(limit:waitingFor:_:)``).
/// It imports no test framework; `ConformanceTesting` bridges its reports to Swift Testing.
package enum ConformanceKitInfo {
    /// The kit's version, printed by the `conformance` command.
    package static let version = "0.1.0"
}
