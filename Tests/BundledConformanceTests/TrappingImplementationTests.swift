import BundledImplementations
import ConformanceKit
import ConformanceTesting
import Foundation
import Testing

#if os(macOS) || os(Linux) || os(Windows)
    /// A pager that traps is contained: each cell runs in a child process (an exit test), so the
    /// trap fails that cell and the test run goes on. Where exit tests do not exist (iOS, tvOS,
    /// watchOS, visionOS) a trap ends the test process, as any crash in a test does.
    @Suite struct TrappingImplementationTests {
        @Test func theTrapOnARepeatedIDIsACrashedCellWithItsStepsNotACrashedRun() async throws {
            let result = try #require(
                await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                    setenv(StepEcho.environmentVariable, "1", 1)
                    let pager = BundledImplementations.trapping[0]
                    _ = await pager.run("P2")
                })
            let standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
            // The trap's own message, and the steps up to it: the timeline of the crashed cell.
            #expect(standardError.contains("Duplicate values for key"))
            let steps = StepEcho.parse(standardError)
            #expect(steps.first?.hasPrefix("bottom reached → request #1") == true, "\(steps)")
            #expect(steps.count >= 3, "\(steps)")
        }

        @Test func contractsWithoutARepeatedIDStillPass() async {
            await #expect(processExitsWith: .success) {
                let pager = BundledImplementations.trapping[0]
                for contract in ["P1", "P4", "P6", "P7"] as [ContractID] {
                    let report = await pager.run(contract)
                    guard case .passed = report.outcome else { fatalError(report.fullText) }
                }
            }
        }

        @Test func itsLedgerNamesTheTrappingContracts() {
            let pager = BundledImplementations.trapping[0]
            #expect(pager.ledger.contracts == ["P2", "P12"])
        }
    }
#endif
