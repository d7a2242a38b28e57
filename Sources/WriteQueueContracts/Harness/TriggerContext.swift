/// The task-local tag that tells the transport and the clock which trigger (a submit or a
/// sending pass the kit started) is parking there. Child tasks and unstructured tasks inherit it.
enum TriggerContext {
    @TaskLocal static var current: Int?
}
