/// Why an implementation is bundled under `Conformance/`.
public enum ImplementationKind: String, Hashable, Sendable, CaseIterable {
    /// A correct, readable implementation the kit ships: it must pass everything applicable.
    case reference
    /// Code written the ways apps really are, passing everything applicable: proof that the
    /// kit accepts correct variations.
    case adopter
    /// A deliberately broken copy with one realistic bug: proof that the contracts bite.
    case mutant
}

/// How the kit drives an implementation.
public enum IntegrationLevel: String, Hashable, Sendable, CaseIterable {
    /// A synchronous state machine, driven step by step.
    case model
    /// Real asynchronous code behind a controlled page source.
    case async
    /// An offline write queue behind the kit's transport.
    case queue
    /// An HTTP endpoint with idempotency-key semantics.
    case server
}
