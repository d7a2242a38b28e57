import BundledImplementations
import ConformanceKit
import Testing
import WriteQueueContracts

/// Every combination of the conforming variations ``MinimalQueueSettings`` lists (send order,
/// body encoding, lease location, sends per pass, how backoff waits, transport style) passes
/// every Q contract: a timeline that assumed one of them would fail here.
@Suite("MinimalQueue: every conforming variation passes every Q contract")
struct MinimalQueueVariationTests {
    // One combination at a time: each contract's watchdog measures wall time (see
    // `bundledImplementationHonoursItsLedger`).
    @Test(.serialized, arguments: MinimalQueueSettings.allCombinations)
    func everyContractPasses(_ settings: MinimalQueueSettings) async {
        for contract in WriteQueueContract.all(for: MinimalQueueAdapter.self) {
            let report = await MinimalQueueAdapter.$settings.withValue(settings) {
                await contract.run(against: MinimalQueueAdapter.self)
            }
            #expect(report.outcome == .passed, "\(settings): \(report.fullText)")
        }
    }
}
