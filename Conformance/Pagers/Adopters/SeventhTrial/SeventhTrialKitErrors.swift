import PagerContracts
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The kit's failures, as our networking layer would surface them (URLSession errors).
func r7NetworkError(for error: any Error) -> any Error {
    guard let failure = error as? PageFailure else { return error }
    switch failure {
    case .cancelled: return URLError(.cancelled)
    case .timeout: return URLError(.timedOut)
    case .serverError: return URLError(.badServerResponse)
    }
}
