import ConformanceKit

extension PagerContract {
    /// Every pager contract, P1 to P13, in catalogue order.
    public static let all: [PagerContract] = [
        duplicateBottomTrigger, crossPageDuplicateIDs, duplicateCompletion, lateStaleResponse,
        staleFailure, failureKeepsItems, endOfList, cancellationIsNotProof,
        cursorCarriedByTicket, cursorStall, refreshIsNewQuery, noProgressStall,
        onePageCommittedAtATime,
    ]

    /// The contract with `id`, or `nil` if no pager contract has it.
    public static func contract(_ id: ContractID) -> PagerContract? {
        all.first { $0.id == id }
    }
}
