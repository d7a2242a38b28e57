/// The adapter of the sample adopter ``TicketOutbox``, with no defect: it must pass every
/// applicable Q contract.
public enum TicketOutboxAdapter: OutboxAdapting {
    public static let defect: OutboxDefect? = nil
}
