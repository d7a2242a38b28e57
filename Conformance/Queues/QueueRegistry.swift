import ConformanceKit
import WriteQueueContracts

extension BundledImplementations {
    /// The bundled write queues: the reference (in both conflict profiles), the sample adopter,
    /// and every mutant with the contracts its one bug breaks.
    public static var queues: [ImplementationUnderCheck] {
        [
            .queue(
                FileWriteQueueAdapter.self, name: "FileWriteQueue", kind: .reference,
                summary: "The reference: one JSON file per task, key fixed at submit, lease per task, "
                    + "capped backoff on the injected clock, redacted logs."),
            .queue(
                FileWriteQueueIETFAdapter.self, name: "FileWriteQueue (IETF profile)", kind: .reference,
                summary: "The reference against a server that follows the IETF idempotency-key draft "
                    + "(409 retries, 422 stops)."),
            .queue(
                TicketOutboxAdapter.self, name: "TicketOutbox", kind: .adopter,
                summary: "An app's outbox actor over an in-memory store object: keeps done items, a "
                    + "store-level lease that expires on the clock, merges pending updates."),
            .queue(
                TicketOutboxFlushingOnSubmitAdapter.self, name: "TicketOutbox (flush on submit)",
                kind: .adopter,
                summary: "The same outbox called the way many apps call it: every submit also "
                    + "flushes, so requests start inside submit."),
            .queue(
                DueTimeOutboxAdapter.self, name: "DueTimeOutbox", kind: .adopter,
                summary: "An outbox that stores each task's next due time and lets a periodic sync "
                    + "skip tasks not yet due, never waiting on a clock itself."),
            .queue(
                DueTimeOutboxFlushingOnLaunchAdapter.self, name: "DueTimeOutbox (flush on launch)",
                kind: .adopter,
                summary: "The same outbox started the way many apps start one: the launch resends "
                    + "what storage holds and awaits it."),
        ] + mutantQueues + appStyleQueues + secondTrialQueues + thirdTrialQueues + fifthTrialQueues
            + sixthTrialQueues
            + seventhTrialQueues
            + eighthTrialQueues
            + ninthTrialQueues
            + twelfthTrialQueues
            + thirteenthTrialQueues
            + fourteenthTrialQueues
            + fifteenthTrialQueues
            + sixteenthTrialQueues
            + seventeenthTrialQueues
            + eighteenthTrialQueues
            + nineteenthTrialQueues
            + twentiethTrialQueues
            + twentyFirstTrialQueues
            + twentySecondTrialQueues
            + twentyThirdTrialQueues
            + twentyEighthTrialQueues
            + thirtiethTrialQueues
            + thirtySecondTrialQueues
            + thirtySixthTrialQueues
            + thirtyEighthTrialQueues
    }

    /// The mutants of ``TicketOutbox``, each with one realistic bug.
    static var mutantQueues: [ImplementationUnderCheck] {
        [
            .queue(
                QueueThatRegeneratesKeyOnRetry.self, kind: .mutant,
                summary: "A fresh key on every retry.",
                ledger: [
                    .fails("Q2", because: "the stored key changes after an unknown outcome"),
                    .blocked("Q3", by: "Q2", because: "the 503 before the crash already rewrote the stored key"),
                    .blocked("Q8", by: "Q2", because: "the first 503 rewrites the stored key"),
                    .blocked("Q9", by: "Q2", because: "the retry after a 408 carries a new key"),
                ]),
            .queue(
                QueueThatKeepsKeyOnlyInMemory.self, kind: .mutant,
                summary: "The key is made in memory at the first send after each launch.",
                ledger: [
                    .fails("Q1", because: "no key is stored at submit"),
                    .blocked("Q3", by: "Q1", because: "the key was never stored, so the relaunch cannot resend under it"),
                ]),
            .queue(
                QueueThatDeletesTaskOn503.self, kind: .mutant,
                summary: "A 5xx deletes the task.",
                ledger: [
                    .fails("Q2", because: "a 503 removes the task"),
                    .blocked("Q3", by: "Q2", because: "the committed-then-503 task is gone before the crash"),
                    .blocked("Q5", by: "Q2", because: "the 500 (an unknown outcome) removes the task"),
                    .blocked("Q8", by: "Q2", because: "the first 503 removes the task: no retry to measure"),
                ]),
            .queue(
                QueueThatRetries409Forever.self, kind: .mutant,
                summary: "A 409 is retried like a 503.",
                ledger: [.fails("Q4", because: "the conflicted task is resent after its backoff")]),
            .queue(
                QueueThatCompletesOnAnyResponse.self, kind: .mutant,
                summary: "Any HTTP answer completes the task.",
                ledger: [
                    .fails("Q2", because: "a 503 completes the task"),
                    .blocked("Q3", by: "Q2", because: "the 503 completes the task before the crash"),
                    .fails("Q4", because: "the 409 completes the task instead of stopping it"),
                    .fails("Q5", because: "a 500 completes the task"),
                    .blocked("Q8", by: "Q2", because: "the first 503 completes the task: no retry to measure"),
                    .fails("Q9", because: "a 408 completes the task: the declared retry never happens"),
                ]),
            .queue(
                QueueThatDerivesKeyFromBody.self, kind: .mutant,
                summary: "The key is a hash of the body.",
                ledger: [
                    .fails("Q6", because: "two identical creates share a key: one record"),
                    .blocked("Q12", by: "Q6", because: "its two identical creates are sent as two requests under one key"),
                ]),
            .queue(
                QueueWithoutSendLease.self, kind: .mutant,
                summary: "No send lease.",
                ledger: [.fails("Q7", because: "two passes send op-1 at once")]),
            .queue(
                QueueThatPersistsAfterFirstSend.self, kind: .mutant,
                summary: "A new task is stored only after its first send returns.",
                ledger: [
                    .fails("Q1", because: "a crash right after submit loses the task"),
                    .blocked("Q3", by: "Q1", because: "the task in flight at the crash was never stored"),
                ]),
            .queue(
                QueueWithUncappedBackoff.self, kind: .mutant,
                summary: "The backoff doubles without a cap.",
                ledger: [.fails("Q8", because: "the sixth retry waits 32 s, past the 16 s cap")]),
            .queue(
                QueueThatRetriesEveryClientError.self, kind: .mutant,
                summary: "Every 4xx but 409 is retried.",
                ledger: [.fails("Q9", because: "a 400 is resent after its backoff")]),
            .queue(
                QueueThatLogsBodies.self, kind: .mutant,
                summary: "The submit log line holds the body.",
                ledger: [.fails("Q10", because: "the sensitive card value appears in the log")]),
            .queue(
                QueueThatOverwritesRestoredTasks.self, kind: .mutant,
                summary: "The first submit after a relaunch saves its own list over the store.",
                ledger: [
                    .fails("Q11", because: "the tasks stored before the crash are overwritten"),
                    .fails(
                        "Q12",
                        because: "the stale list saved at the next submit reverts the merged update "
                            + "to its older body"),
                ]),
            .queue(
                CoalescingQueueThatSendsOlderBody.self, kind: .mutant,
                summary: "Merging a pending update keeps the older body.",
                ledger: [.fails("Q12", because: "the draft body is sent instead of the final one")]),
        ]
    }

    /// Thirteen write queues written the way apps write them, by an author outside the kit
    /// (`Queues/AppStyle/`, app code unchanged): ten correct, three with one bug each.
    static var appStyleQueues: [ImplementationUnderCheck] {
        [
            .queue(
                LeaseTableOutboxAdapter.self, name: "LeaseTableOutbox", kind: .adopter,
                summary: "App-style actor over an in-memory store object; a lease table in the actor, "
                    + "up to four attempts per flush with clock backoff capped at 60 s."),
            .queue(
                NewestFirstOutboxAdapter.self, name: "NewestFirstOutbox", kind: .adopter,
                summary: "App-style actor, one JSON file per task; each pass sends due tasks newest "
                    + "first through a send closure, sleeping before a retry (cap 30 s)."),
            .queue(
                ParallelFlushOutboxAdapter.self, name: "ParallelFlushOutbox", kind: .adopter,
                summary: "App-style actor that claims every due task, then sends them concurrently in "
                    + "a task group (three attempts each, clock backoff capped at 64 s)."),
            .queue(
                RetryScheduleQueueAdapter.self, name: "RetryScheduleQueue", kind: .adopter,
                summary: "App-style actor over one JSON array file; a next-attempt date per job, passes "
                    + "skip jobs not yet due and never wait (cap 300 s)."),
            .queue(
                DictionaryBodyOutboxAdapter.self, name: "DictionaryBodyOutbox", kind: .adopter,
                summary: "App-style actor keeping the body as a dictionary; the sorted-keys bytes of "
                    + "the first send are stored and reused (cap 120 s)."),
            .queue(
                RedactingOutboxAdapter.self, name: "RedactingOutbox", kind: .adopter,
                summary: "App-style actor that logs every step, bodies with password, token, card "
                    + "number and CVV masked (cap 60 s)."),
            .queue(
                CallbackOutboxAdapter.self, name: "CallbackOutbox", kind: .adopter,
                summary: "App-style class on a private serial queue with a completion-handler "
                    + "transport, one file per record, backoff as a due time (cap 120 s)."),
            .queue(
                RestoringOutboxAdapter.self, name: "RestoringOutbox", kind: .adopter,
                summary: "App-style actor over one JSON array file restored off the actor at launch, "
                    + "then flushed; submits join the one restore (cap 45 s)."),
            .queue(
                MainActorOutboxAdapter.self, name: "MainActorOutbox", kind: .adopter,
                summary: "App-style @MainActor @Observable view model over an in-memory database, "
                    + "restored synchronously in init (cap 32 s)."),
            .queue(
                GraphQLOutboxAdapter.self, name: "GraphQLOutbox", kind: .adopter,
                summary: "App-style actor posting a GraphQL mutation envelope built once at submit, the "
                    + "key as variables.input.clientMutationId, no key header (cap 60 s)."),
            .queue(
                BackoffWithoutCeilingOutboxAdapter.self, name: "BackoffWithoutCeilingOutbox", kind: .mutant,
                summary: "App-style actor whose backoff doubles forever (1, 2, 4, 8 … s).",
                ledger: [.fails("Q8", because: "the retry delays keep doubling: no cap is ever reached")],
                // Growth without a ceiling shows only over a day of retries: Q8's fixed timeline.
                explorable: false),
            .queue(
                StuckSendingRowOutboxAdapter.self, name: "StuckSendingRowOutbox", kind: .mutant,
                summary: "App-style actor that writes `sending` to a row's file before each request "
                    + "and only ever picks `pending` rows.",
                ledger: [
                    .fails("Q3", because: "a row left `sending` by the crash is never picked again: no replay"),
                    .blocked("Q1", by: "Q3", because: "the row in flight at the crash is left `sending`: never resent"),
                ]),
            .queue(
                ClientErrorMixupOutboxAdapter.self, name: "ClientErrorMixupOutbox", kind: .mutant,
                summary: "App-style actor whose status table retries 400 and makes 429 final.",
                ledger: [.fails("Q9", because: "a 400 is resent after its backoff, and a 429 is never retried")]),
        ]
    }

    /// Six queues written from app experience before reading the kit (`Queues/SecondTrial/`):
    /// five correct, one with one bug.
    static var secondTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                JitterBackoffOutboxAdapter.self, name: "JitterBackoffOutbox", kind: .adopter,
                summary: "Second-trial actor over an in-memory store; full-jitter backoff on the clock "
                    + "inside the flush (up to four sends per task per flush, cap 60 s)."),
            .queue(
                MergingDraftQueueAdapter.self, name: "MergingDraftQueue", kind: .adopter,
                summary: "Second-trial actor with create/update; a never-sent pending update absorbs the "
                    + "next update to its entity (shallow JSON merge, one key); due times in storage (cap 300 s)."),
            .queue(
                OperationQueueOutboxAdapter.self, name: "OperationQueueOutbox", kind: .adopter,
                summary: "Second-trial class sending from a Foundation OperationQueue (two at a time), "
                    + "completion-handler transport, flush awaits a barrier block; one file per task."),
            .queue(
                ShortLeaseOutboxAdapter.self, name: "ShortLeaseOutbox", kind: .mutant,
                summary: "Second-trial file-backed actor whose stored send lease is 5 s while a request "
                    + "may run 30 s.",
                ledger: [
                    .fails("Q7", because: "the 5 s lease expires while the 30 s request is in flight, "
                        + "so a later pass sends the task again"),
                ]),
            .queue(
                WorkerLoopOutboxAdapter.self, name: "WorkerLoopOutbox", kind: .adopter,
                summary: "Second-trial actor with one worker started at launch, woken through an AsyncStream; "
                    + "its own retry timer on the clock wakes it; flush waits for idle."),
            .queue(
                PriorityOutboxAdapter.self, name: "PriorityOutbox", kind: .adopter,
                summary: "Second-trial actor sending highest body priority first, ties by createdAt; due "
                    + "times in storage (cap 300 s)."),
        ]
    }

    /// Three correct queues of the third trial (`Queues/ThirdTrial/`), each one the kit flagged
    /// or judged differently from run to run before this trial.
    static var thirdTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                SerialFifoAdapter.self, name: "SerialFifoWorkerQueue", kind: .adopter,
                summary: "Third-trial actor sending strictly in submit order: the head is retried every 5 s "
                    + "until it is answered, later tasks wait behind it."),
            .queue(
                LaunchRestoringAdapter.self, name: "LaunchRestoringQueue", kind: .adopter,
                summary: "Third-trial class whose init starts a Task that restores storage and sends what "
                    + "is due (sendsOnLaunch); due times in storage (cap 90 s)."),
            .queue(
                AuthRetryAdapter.self, name: "AuthRetryQueue", kind: .adopter,
                summary: "Third-trial class whose API retries 401 (token refresh) with the same key; "
                    + "declared retryable, the default terminal set untouched."),
        ]
    }

    /// Three queues of the fifth trial (`Queues/FifthTrial/`), written from a prose brief by an
    /// author who had not read the kit and adapted from the docs alone: timers and workers of
    /// the queue's own, which the kit reported as adapter errors, differently on every run.
    static var fifthTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                TickerOutboxAdapter.self, name: "TickerOutbox", kind: .adopter,
                summary: "Fifth-trial actor whose start() runs a sync every 15 s tick until cancelled; "
                    + "due times in storage (1 s doubling, cap 32 s); syncNow() waits for a running sync."),
            .queue(
                RetryTimerOutboxAdapter.self, name: "RetryTimerOutbox", kind: .adopter,
                summary: "Fifth-trial class whose drain re-arms one retry timer (a Task that sleeps, then "
                    + "drains) when it ends; flush joins a running drain; start() drains in the background."),
            .queue(
                UncappedTimerOutboxAdapter.self, name: "UncappedTimerOutbox", kind: .mutant,
                summary: "Fifth-trial queue of RetryTimerOutbox's design written separately, whose backoff "
                    + "cap is never applied.",
                ledger: [
                    .fails("Q8", because: "the declared 60 s cap is never applied: the delay doubles "
                        + "without a ceiling (1, 2, 4, …, 64 s)"),
                ],
                // The cap is passed only at the seventh retry of one task in a row, deeper than a
                // 24-step schedule reaches: Q8's fixed timeline.
                explorable: false),
        ]
    }

    /// The sixth independent trial: four queues written by a helper that had not read the kit,
    /// from a prose brief, and adapted from the docs alone (see `SixthTrial/README.md`).
    static var sixthTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                BatchingOutboxAdapter.self, name: "BatchingOutbox", kind: .adopter,
                summary: "Sixth-trial actor: a drain sends up to 3 due tasks at once in a task group; "
                    + "every task in one JSON file; bodies kept as JSON dictionaries, re-encoded with sorted keys."),
            .queue(
                ContextOutboxAdapter.self, name: "ContextOutbox", kind: .adopter,
                summary: "Sixth-trial Core-Data-like context: perform blocks on a private serial queue, "
                    + "rows leased in storage (lockedUntil = request timeout + 5 s) before sending."),
            .queue(
                FreshKeyRetryOutboxAdapter.self, name: "FreshKeyRetryOutbox", kind: .mutant,
                summary: "Sixth-trial mutant: a 5xx, a timeout or a transport error gives the retry a new key.",
                ledger: [
                    .fails("Q2", because: "an unknown outcome rewrites the stored key"),
                    .blocked("Q3", by: "Q2", because: "the 503 before the crash already rewrote the key"),
                    .blocked("Q8", by: "Q2", because: "the first 503 rewrites the key"),
                ]),
            .queue(
                EagerDeleteOutboxAdapter.self, name: "EagerDeleteOutbox", kind: .mutant,
                summary: "Sixth-trial mutant: the task leaves storage when its request is handed to the transport.",
                ledger: [
                    .fails("Q1", because: "the task is not in storage while its first request is in flight"),
                    .blocked("Q2", by: "Q1", because: "the task was gone before the answer came"),
                    .blocked("Q3", by: "Q1", because: "the task was gone before the answer came"),
                    .blocked("Q5", by: "Q1", because: "the task was gone before the answer came"),
                    .blocked("Q8", by: "Q1", because: "the task was gone before the first 503"),
                    .fails("Q9", because: "a retryable 408 and 429 are never retried (the task is gone)"),
                ]),
        ]
    }

    /// The seventh independent trial: queues written by a helper that had not read the kit,
    /// and adapted from the docs alone (see `SeventhTrial/README.md`).
    static var seventhTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                SyncEngineAdapter.self, name: "SyncEngine", kind: .adopter,
                summary: "Seventh-trial @MainActor sync engine over a completion-handler client that calls "
                    + "back on its own serial queue; the \"sending\" set lives in memory; newest first; no backoff."),
            .queue(
                FileFifoOutboxAdapter.self, name: "FileFifoOutbox", kind: .mutant,
                summary: "Seventh-trial mutant: the request builder mints a new idempotency key for every "
                    + "request; the key is never stored.",
                ledger: [
                    .fails("Q1", because: "no key is stored with the task at submit"),
                    .blocked("Q2", by: "Q1", because: "the retry's new key was never stored with the task"),
                    .blocked("Q3", by: "Q1", because: "the replay after relaunch carries a new key"),
                    .blocked("Q8", by: "Q1", because: "the retry's new key was never stored with the task"),
                    .blocked("Q9", by: "Q1", because: "the retry after 408 carries a new key"),
                ]),
            .queue(
                JournalOutboxAdapter.self, name: "JournalOutbox", kind: .mutant,
                summary: "Seventh-trial mutant over an append-only event journal: every status but 2xx and "
                    + "409 is retried after a fixed 5 s delay, 400 and 422 included.",
                ledger: [
                    .fails("Q9", because: "every terminal 4xx, 400 and 422 included, is resent every 5 s"),
                ],
                // A retry is due 5 s after the answer, 16 of the explorer's clock steps (1/16 of
                // the cap, for leases and timeouts) with a pass after them: deeper than a 24-step
                // schedule reaches. Q9's fixed timeline moves the clock past the cap at once.
                explorable: false),
        ]
    }

    /// The eighth independent trial (see `EighthTrial/README.md`).
    static var eighthTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                PendingUploadsSyncAdapter.self, name: "PendingUploadsSync", kind: .mutant,
                summary: "Eighth-trial @MainActor sync manager, one JSON file per upload, backoff waited "
                    + "in place: a timed-out upload is marked failed for good.",
                ledger: [.fails("Q2", because: "a timeout stops the task (needsAttention) instead of retrying it")]),
        ]
    }

    static var ninthTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                PlistCallbackOutboxAdapter.self, name: "PlistCallbackOutbox", kind: .mutant,
                summary: "Ninth-trial pre-concurrency outbox on a serial DispatchQueue, a property list file "
                    + "and a completion-handler client: every 4xx but 409 holds the task, 408 and 429 included.",
                ledger: [.fails("Q9", because: "a 408 or 429 holds the task for a person instead of retrying it")]),
        ]
    }

    /// The twelfth independent trial: queues written by a helper that had not read the kit, and
    /// adapted from the docs alone (see `Queues/TwelfthTrial/README.md`).
    static var twelfthTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                JitterOutboxAdapter.self, name: "JitterOutbox", kind: .mutant,
                summary: "Twelfth-trial actor outbox, one JSON file per operation, full-jitter backoff "
                    + "(0.5 s to a 60 s cap) from the system generator: a 409 is taken as already applied.",
                ledger: [
                    .fails("Q4", because: "a 409 (a different body under the key) completes the task"),
                    .blocked("Q5", by: "Q4", because: "the only non-success that completes a task is the 409"),
                ]),
            .queue(
                SyncCoordinatorAdapter.self, name: "SyncCoordinator", kind: .mutant,
                summary: "Twelfth-trial class on a serial DispatchQueue, a property list file and a "
                    + "completion-handler client, merging pending updates: an edit is merged into an update "
                    + "whose outcome is unknown.",
                ledger: [
                    .fails("Q2", because: "an edit after a 503 is merged into the update, whose retry carries the new body under the old key"),
                ]),
        ]
    }
}

extension BundledImplementations {
    /// The thirteenth trial: two queues written from the docs alone by an author who had not
    /// read the kit's sources (see `ThirteenthTrial/README.md`).
    static var thirteenthTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                EntityLaneQueueAdapter.self, name: "EntityLaneQueue", kind: .adopter,
                summary: "Thirteenth-trial actor, one JSON file per mutation, one lane per entity sent "
                    + "concurrently (a task group), doubling backoff from 1 s to a 60 s cap waited in the pass "
                    + "and kept as a due time."),
            .queue(
                UploadCenterAdapter.self, name: "UploadCenter", kind: .mutant,
                summary: "Thirteenth-trial class on a serial DispatchQueue, one JSON table and a "
                    + "completion-handler transport, due-time backoff: a row saved as uploading by a killed "
                    + "process is restored as it is and never sent again.",
                ledger: [
                    .fails("Q3", because: "the row in flight at the crash stays uploading after the relaunch"),
                    .blocked("Q1", by: "Q3", because: "the first request parked at the crash leaves its row uploading forever"),
                ]),
        ]
    }
}

extension BundledImplementations {
    /// The fourteenth trial: three queues, each with one subtle bug its author expected the kit
    /// to miss, written from the docs alone (see `FourteenthTrial/README.md`).
    static var fourteenthTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                TaskFileOutboxAdapter.self, name: "TaskFileOutbox", kind: .mutant,
                summary: "Fourteenth-trial actor, one JSON file per task, the body kept as a dictionary and "
                    + "re-encoded on every send without sorted keys.",
                ledger: [.fails("Q3", because: "the resend after a relaunch carries the body's fields in another order")]),
            .queue(
                SyncOutboxAdapter.self, name: "SyncOutbox", kind: .mutant,
                summary: "Fourteenth-trial class with an NSLock, memory plus one JSON file, doubling backoff "
                    + "from a shift that overflows at the 64th attempt.",
                ledger: [.fails("Q8", because: "from the 64th retry the delay is negative, then zero")],
                explorable: false),
            .queue(
                PendingChangesUploaderAdapter.self, name: "PendingChangesUploader", kind: .mutant,
                summary: "Fourteenth-trial completion-handler uploader on a serial DispatchQueue, one JSON file, "
                    + "a 65 s lease stamped on the whole batch when a flush claims it, never when a request starts.",
                ledger: [.fails("Q7", because: "a task whose request starts late in a batch outlives its lease while in flight")],
                explorable: false),
        ]
    }
}

extension BundledImplementations {
    /// The fifteenth trial: three more queues, each with one subtle bug its author expected the
    /// kit to miss, written from the docs alone (see `FifteenthTrial/README.md`).
    static var fifteenthTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                NoteSyncOutboxAdapter.self, name: "NoteSyncOutbox", kind: .mutant,
                summary: "Fifteenth-trial actor, one JSON file per task, retries waited on the clock inside the "
                    + "pass: after a relaunch the first wait is rebuilt from the stored attempt count without the cap.",
                ledger: [.fails("Q8", because: "the first retry after a relaunch waits past the 300 s cap")],
                explorable: false),
            .queue(
                OrderSubmissionQueueAdapter.self, name: "OrderSubmissionQueue", kind: .mutant,
                summary: "Fifteenth-trial class with an NSLock over an in-memory order store, due times per order: "
                    + "a 3xx counts as success.",
                ledger: [.fails("Q5", because: "a 307 completes the order")],
                explorable: false),
            .queue(
                ExpenseOutboxAdapter.self, name: "ExpenseOutbox", kind: .mutant,
                summary: "Fifteenth-trial completion-handler outbox on a serial DispatchQueue, one JSON file: the "
                    + "report for a task stuck a day redacts only its default fields.",
                ledger: [.fails("Q10", because: "the stuck-for-a-day report logs the card number")],
                explorable: false)
        ]
    }
}

extension BundledImplementations {
    /// The sixteenth trial: three more queues, each with one subtle bug its author expected the
    /// kit to miss, written from the docs alone (see `SixteenthTrial/README.md`).
    static var sixteenthTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                InspectionReportOutboxAdapter.self, name: "InspectionReportOutbox", kind: .mutant,
                summary: "Sixteenth-trial actor, one JSON file per report, due times in the files: the retry's due "
                    + "time counts from the moment the request started, not from its answer.",
                ledger: [.fails("Q8", because: "a 503 that took longer than the delay is retried at once")],
                explorable: false),
            .queue(
                ScanUploadQueueAdapter.self, name: "ScanUploadQueue", kind: .mutant,
                summary: "Sixteenth-trial actor store shaped like SQLite, claims in a temporary table, a task-group "
                    + "sender: due rows are picked from one page of 50 unfinished rows.",
                ledger: [.fails("Q4", because: "50 stopped rows fill the page, and no new task is sent again")],
                explorable: false),
            .queue(
                DonationPledgeQueueAdapter.self, name: "DonationPledgeQueue", kind: .mutant,
                summary: "Sixteenth-trial @MainActor class over one JSON file, a completion-handler client: the log's "
                    + "masker shows the last four characters, so a value of four or fewer shows whole.",
                ledger: [.fails("Q10", because: "a four-character sensitive value appears in the log")],
                explorable: false),
        ]
    }
}

extension BundledImplementations {
    /// The seventeenth trial: a queue with one subtle bug its author expected the kit to miss,
    /// and a correct one written to be flagged wrongly, from the docs alone (see
    /// `SeventeenthTrial/README.md`).
    static var seventeenthTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                CheckoutOutboxAdapter.self, name: "CheckoutOutbox", kind: .mutant,
                summary: "Seventeenth-trial generic actor over a Clock, one JSON file per order, backoff waited "
                    + "inside the pass: an order whose key was issued 71 h ago gets a new key before its next attempt.",
                ledger: [.fails("Q2", because: "a retry days after a lost response carries a new key")],
                explorable: false),
            .queue(
                JournalRelayAdapter.self, name: "JournalRelay", kind: .adopter,
                summary: "Seventeenth-trial class with an NSLock over an append-only journal: keys are a per-launch "
                    + "prefix and a sequence number inside the body, a 2 s hold before a first send, newest first, "
                    + "every due task at once, jittered backoff, the IETF profile."),
        ]
    }
}

extension BundledImplementations {
    /// The eighteenth trial's queues: two with a bug their author expected the kit to miss and
    /// a correct one written to be flagged wrongly, from the docs alone (see
    /// `EighteenthTrial/README.md`).
    static var eighteenthTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                FieldReportOutboxAdapter.self, name: "FieldReportOutbox", kind: .mutant,
                summary: "Eighteenth-trial actor, one JSON file per report, capped doubling: due times are stored "
                    + "in device uptime, which starts over when the phone restarts.",
                ledger: [.fails("Q8", because: "after the phone restarts the retry waits for uptime to catch up")],
                // The explorer's crashes never restart the phone.
                explorable: false),
            .queue(
                PunchClockOutboxAdapter.self, name: "PunchClockOutbox", kind: .mutant,
                summary: "Eighteenth-trial class on a serial DispatchQueue with a completion-handler client: "
                    + "a cancelled request returns from the handler before the task and the drain are released.",
                ledger: [.fails("Q2", because: "after a cancelled request the pass never returns and the punch is never resent")],
                // The explorer never cancels a request.
                explorable: false),
            .queue(
                TicketSyncControllerAdapter.self, name: "TicketSyncController", kind: .adopter,
                summary: "Eighteenth-trial @MainActor controller over a transactional row store: leases under a "
                    + "per-process token, overlapping passes, decorrelated jitter with a retry timer in Task { }, "
                    + "tombstones, and a client_created_at stamp the queue adds to each body (declared)."),
        ]
    }
}

extension BundledImplementations {
    /// The nineteenth trial's queues, written from the docs alone (see
    /// `NineteenthTrial/README.md`).
    static var nineteenthTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                MutationJournalAdapter.self, name: "MutationJournal", kind: .mutant,
                summary: "Nineteenth-trial actor over a row table, one file per row, due times in storage: every "
                    + "tenth unknown outcome in a row re-stamps the row's creation time to send it after the others.",
                ledger: [.fails("Q2", because: "the tenth 503 in a row changes the task's creation time")],
                // The explorer's schedules end long before a tenth failure in a row.
                explorable: false),
            .queue(
                ShiftRequestOutboxAdapter.self, name: "ShiftRequestOutbox", kind: .mutant,
                summary: "Nineteenth-trial @MainActor @Observable store in one JSON file: tasks stopped by a 401 "
                    + "or 403 go back to waiting at every launch, in case the user signed in again.",
                ledger: [.fails("Q9", because: "a task stopped by a declared-terminal 401 or 403 is sent again after a relaunch")],
                // The explorer never answers 401 or 403.
                explorable: false),
            .queue(
                MutationUploaderAdapter.self, name: "MutationUploader", kind: .adopter,
                summary: "Nineteenth-trial NSLock class with a completion-handler client that sends each task in a "
                    + "{\"mutations\": [{\"record\": …}]} envelope (RequestLayout with an array index)."),
        ]
    }
}

extension BundledImplementations {
    /// The twentieth trial's queue, written from the docs alone (see
    /// `TwentiethTrial/README.md`).
    static var twentiethTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                PayrollUploadCenterAdapter.self, name: "PayrollUploadCenter", kind: .mutant,
                summary: "Twentieth-trial class on an OperationQueue (upload, then record the outcome): a change "
                    + "blocked by a 4xx keeps the server's message verbatim as its diagnostic and log line.",
                ledger: [.fails("Q10", because: "a 400 whose message quotes the rejected value is logged whole")]),
        ]
    }

    /// The twenty-first trial's queues, written from the docs alone (see
    /// `Queues/TwentyFirstTrial/README.md`).
    static var twentyFirstTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                EntityLaneOperationsAdapter.self, name: "EntityLaneOperations", kind: .adopter,
                summary: "Twenty-first-trial OperationQueue with one async Operation per upload, uploads of one "
                    + "entity chained by dependencies, a completion-handler client and one JSON file."),
            .queue(
                DraftStoreOutboxAdapter.self, name: "DraftStoreOutbox", kind: .adopter,
                summary: "Twenty-first-trial Core-Data-like store in an actor (dirty objects, save): edits to one "
                    + "contact merged before sending, a per-launch sending mark saved before each send."),
            .queue(
                GiftCardRedemptionsAdapter.self, name: "GiftCardRedemptions", kind: .mutant,
                summary: "Twenty-first-trial actor sending up to three redemptions at once from a task group, "
                    + "random retry delays under the cap, a support log whose redactor masks string values only.",
                ledger: [.fails("Q10", because: "a sensitive field sent as a JSON number is logged")],
                // The explorer's canaries are strings, which this redactor masks.
                explorable: false),
        ]
    }

    /// The twenty-second trial's queues, written from the docs alone (see
    /// `Queues/TwentySecondTrial/README.md`).
    static var twentySecondTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                GraphQLMutationOutboxAdapter.self, name: "GraphQLMutationOutbox", kind: .adopter,
                summary: "Twenty-second-trial @MainActor service over an injected database: GraphQL envelopes "
                    + "(key in variables.clientMutationId, body re-encoded with sorted keys), newest first, due times."),
            .queue(
                SerialQueueUploaderAdapter.self, name: "SerialQueueUploader", kind: .adopter,
                summary: "Twenty-second-trial class whose state lives on its own serial DispatchQueue: completion-"
                    + "handler sends from inside that queue, two at a time, in-memory leases, one JSON blob."),
            .queue(
                ExpenseReceiptQueueAdapter.self, name: "ExpenseReceiptQueue", kind: .mutant,
                summary: "Twenty-second-trial actor with one JSON file per receipt, oldest first, equal-jitter "
                    + "backoff; its list of resendable client errors omits 429, which the API declares retryable.",
                ledger: [.fails("Q9", because: "a 429 is held for review instead of being resent")]),
        ]
    }

    /// The twenty-third trial's queues, written from the docs alone (see
    /// `Queues/TwentyThirdTrial/README.md`).
    static var twentyThirdTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                AsyncStreamSyncWorkerAdapter.self, name: "AsyncStreamSyncWorker", kind: .adopter,
                summary: "Twenty-third-trial actor whose long-lived loop consumes an AsyncStream of wake-ups: a "
                    + "SQLite-like table, a 45 s lease in storage, seeded decorrelated-jitter backoff."),
            .queue(
                BatchedEventsUploaderAdapter.self, name: "BatchedEventsUploader", kind: .mutant,
                summary: "Twenty-third-trial @MainActor uploader over one JSON file with ISO-8601 times: up to ten "
                    + "events per pass, edits merged into unsent updates, a 401 held for sign-in. Written as "
                    + "correct; a pass releases its whole batch's claims at the end, a later sync's claim too.",
                ledger: [.fails("Q7", because: "a failed event taken by a later sync is sent again by the first pass")]),
            .queue(
                DefaultsOutboxAdapter.self, name: "DefaultsOutbox", kind: .adopter,
                summary: "From an outside trial: an actor outbox kept as one dictionary in a UserDefaults-like "
                    + "store, bodies as dictionaries re-encoded with JSONSerialization, retries armed through a timer seam."),
            .queue(
                SnapshotOutboxAdapter.self, name: "SnapshotOutbox", kind: .mutant,
                summary: "From an outside trial: the same outbox's first version, whose sync writes back the "
                    + "copy it read when it began, so a task submitted while a request flies is lost.",
                ledger: [
                    .fails("Q1", because: "op-4, submitted while op-3's request was in flight, is gone once that request succeeds"),
                ]),
            .queue(
                MutationEnvelopeOutboxAdapter.self, name: "MutationEnvelopeOutbox", kind: .adopter,
                summary: "From an outside trial: an actor GraphQL outbox over one JSON file, the key as "
                    + "clientMutationId inside variables.input, due times in storage capped at 32 s."),
            .queue(
                StatusColumnOutboxAdapter.self, name: "StatusColumnOutbox", kind: .adopter,
                summary: "From an outside trial: a SQLite-like table with a status column, sending newest "
                    + "first, three at once in a task group; rows left sending go back to pending at launch."),
            .queue(
                PreferencesOutboxAdapter.self, name: "PreferencesOutbox", kind: .mutant,
                summary: "From an outside trial: a UserDefaults-like FIFO that retries inline on the clock, and "
                    + "drops a write whose request throws (a timeout, a lost connection).",
                ledger: [
                    .fails("Q2", because: "a dropped connection removes the task"),
                    .blocked("Q3", by: "Q2", because: "the lost answer before the crash removes the task"),
                    .blocked("Q5", by: "Q2", because: "its dropped connection and timeout remove their tasks"),
                ]),
            .queue(
                SerialQueueFileOutboxAdapter.self, name: "SerialQueueFileOutbox", kind: .mutant,
                summary: "From an outside trial: completion handlers on a serial queue, one file per request; "
                    + "every status but 2xx and 409 is retried, 400 and 422 included.",
                ledger: [.fails("Q9", because: "a 400 (and every other client error) is resent")]),
            .queue(
                MergingDraftSyncQueueAdapter.self, name: "MergingDraftSyncQueue", kind: .mutant,
                summary: "From an outside trial: completion handlers on a serial queue, draft edits merged "
                    + "into any pending update, one already sent with an unknown outcome included.",
                ledger: [
                    .fails("Q2", because: "an edit after a 503 is merged into the sent update: its retry carries the new body under the old key"),
                ]),
            .queue(
                HeadOfLineOutboxAdapter.self, name: "HeadOfLineOutbox", kind: .mutant,
                summary: "From an outside trial: an actor that sends strictly in order, and builds each "
                    + "request again with a fresh client_sent_at stamp.",
                ledger: [
                    .fails("Q3", because: "the resend after the relaunch carries another client_sent_at than the first request"),
                ]),
            .queue(
                EventJournalOutboxAdapter.self, name: "EventJournalOutbox", kind: .adopter,
                summary: "From an outside trial: an event-sourced actor; every change is appended to a JSON-lines "
                    + "journal, the state rebuilt from it at launch and the journal compacted."),
            .queue(
                RoundEightWALAdapter.self, name: "WriteAheadLogOutbox", kind: .adopter,
                summary: "From an outside trial: an actor over a write-ahead log; operations and acknowledgements "
                    + "appended as JSON lines to two files with FileHandle, the state rebuilt by replaying both."),
            .queue(
                RoundEightReachabilityAdapter.self, name: "ReachabilityOutbox", kind: .adopter,
                summary: "From an outside trial: an actor whose sync starts from a reachability callback; each "
                    + "request races its 30 s timeout on the injected clock in a task group; capped backoff as a "
                    + "stored not-before date."),
            .queue(
                YieldingDrainOutboxAdapter.self, name: "YieldingDrainOutbox", kind: .adopter,
                summary: "From an outside trial: an actor whose drain task yields before and after every send; "
                    + "a flush during a drain joins it; due dates for a 1 s to 30 s backoff in a JSON file."),
            .queue(
                DetachedWorkerOutboxAdapter.self, name: "DetachedWorkerOutbox", kind: .adopter,
                summary: "From an outside trial: a lock-guarded class whose sync awaits a detached task that "
                    + "sends in a task group of at most two; 90 s leases kept as rows of the store."),
            .queue(
                SerialQueueOutboxAdapter.self, name: "SerialQueueOutbox", kind: .mutant,
                summary: "From an outside trial: completion handlers over two serial dispatch queues; a sync checks "
                    + "the in-flight set on one hop and marks the task on a later one.",
                ledger: [.fails("Q7", because: "two syncs both find one task free before either marks it in flight")],
                // The race needs two passes started in the same instant, which the explorer never
                // does: its schedules must replay the same way every time.
                explorable: false),
            .queue(
                NewKeyOnRetryOutboxAdapter.self, name: "NewKeyOnRetryOutbox", kind: .mutant,
                summary: "From an outside trial: a main-actor observable model that saves drafts to a file and "
                    + "gives a change a new idempotency key after a request that threw.",
                ledger: [
                    .fails("Q2", because: "the retry after a lost response carries a new key"),
                    .blocked("Q3", by: "Q2", because: "the retry before the crash already carried a new key"),
                ]),
            .queue(
                RoundEightOperationUploaderAdapter.self, name: "OperationKeyUploader", kind: .mutant,
                summary: "From an outside trial: an OperationQueue of three concurrent asynchronous operations, "
                    + "all tasks in one property-list file; the idempotency key is made at send time and saved "
                    + "only with the answer.",
                ledger: [
                    .fails("Q1", because: "the key is not in storage before the first send, so a crash then loses it"),
                    .blocked("Q2", by: "Q1", because: "the key appears in storage only after the first request"),
                    .blocked("Q3", by: "Q1", because: "the key appears in storage only after the first request"),
                ]),
            .queue(
                RoundEightKeyValueAdapter.self, name: "KeyValueOutbox", kind: .mutant,
                summary: "From an outside trial: an actor over a UserDefaults-like store; every failed attempt "
                    + "logs its whole payload.",
                ledger: [.fails("Q10", because: "a failed attempt logs the payload, sensitive fields included")]),
            .queue(
                CircuitBreakerOutboxAdapter.self, name: "CircuitBreakerOutbox", kind: .mutant,
                summary: "From an outside trial: a retry-policy object and a circuit breaker that opens after three "
                    + "failures in a row; each trip without a success in between doubles its cool-down, past the cap.",
                ledger: [.fails("Q8", because: "the breaker's cool-down holds op-1 for 60 s and more, past the declared 30 s cap")],
                // It keeps due times in storage and never waits on the clock: the explorer judges a
                // backoff only in a pass that waits (see Docs/Explorer.md).
                explorable: false),
            .queue(
                ContextStoreOutboxAdapter.self, name: "ContextStoreOutbox", kind: .mutant,
                summary: "From an outside trial: a Core-Data-like context whose every access runs in perform blocks "
                    + "on a private serial queue; a terminal 4xx keeps the server's message word for word.",
                ledger: [.fails("Q10", because: "a 400's message quotes the rejected card number into storage and the log")]),
            .queue(
                PagedFetchOutboxAdapter.self, name: "PagedFetchOutbox", kind: .mutant,
                summary: "From an outside trial: a row table whose sync fetches the 25 oldest unfinished rows, "
                    + "stopped ones included, so once 25 are stopped nothing new is sent.",
                ledger: [
                    .fails("Q4", because: "61 stopped tasks fill the fetched page: a new task is never sent"),
                    .blocked("Q9", by: "Q4", because: "its stopped tasks fill the page, so a control submitted after them is never sent"),
                ],
                explorable: false),
            .queue(
                TaskStateMachineQueueAdapter.self, name: "TaskStateMachineQueue", kind: .adopter,
                summary: "From an outside trial: a state machine per task (pending, sending, waiting until, "
                    + "done, failed) in a locked dictionary store, due tasks claimed at once, done ones cleaned up."),
            .queue(
                CancelDropOutboxAdapter.self, name: "CancelDropOutbox", kind: .mutant,
                summary: "From an outside trial: a JSON-file outbox that takes a request cancelled on the phone "
                    + "for the user giving up, and deletes the task.",
                ledger: [.fails("Q2", because: "a request cancelled on the phone removes the task; it may have been written")],
                explorable: false),
            .queue(
                FormSubmissionQueueAdapter.self, name: "FormSubmissionQueue", kind: .mutant,
                summary: "From an outside trial: an actor form queue, one JSON file per submission, whose "
                    + "double-tap guard drops a submit whose body equals one still waiting.",
                ledger: [
                    .fails("Q6", because: "the second of two identical submits is dropped: one task, one record"),
                    .blocked("Q12", by: "Q6", because: "its two identical creates are sent as one request"),
                ]),
            .queue(
                MealLogSyncQueueAdapter.self, name: "MealLogSyncQueue", kind: .mutant,
                summary: "Twenty-third-trial GCD-style meal diary outbox, one file per entry, completion-handler "
                    + "client; its key is a hash of the payload, so two quick-adds of one meal share it.",
                ledger: [
                    .fails("Q6", because: "two separate adds of the same meal carry one key"),
                    .blocked("Q12", by: "Q6", because: "its two identical creates are sent under one key"),
                ]),
        ]
    }

    static var twentyEighthTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                NotesOutboxAdapter.self, name: "NotesOutbox", kind: .adopter,
                summary: "Twenty-eighth-trial actor over one JSON file: edits merged into updates never sent, a sync "
                    + "that drains in Task { } and sends three at once in a task group, jittered backoff on the clock."),
            .queue(
                BuggyNotesOutboxAdapter.self, name: "BuggyNotesOutbox", kind: .mutant,
                summary: "The same outbox with its merge guard kept only in memory: an update whose request was "
                    + "in flight when the app died takes the edit made after the relaunch.",
                ledger: [
                    .fails("Q2", because: "the relaunch resends the update's key with the later edit's body"),
                ]),
        ]
    }

    /// The thirtieth trial's buggy outbox, written from the docs alone (see
    /// `OutsideTrial/OverflowBackoffOutbox/README.md`).
    static var thirtiethTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                OverflowOutboxAdapter.self, name: "OverflowOutbox", kind: .mutant,
                summary: "Thirtieth-trial final class on a serial DispatchQueue, completion-handler transport, one "
                    + "JSON file, due dates on an injected now; its backoff 1 << (n - 1) overflows at the 64th retry.",
                ledger: [.fails("Q8", because: "retry #64 is sent at once: the shifted delay overflowed to zero")],
                // 64 failures of one task in a row: Q8's fixed timeline, never a 24-step schedule.
                explorable: false),
        ]
    }

    /// The thirty-second trial's outbox, written from the docs alone (see
    /// `OutsideTrial/CommentOutbox/README.md`).
    static var thirtySecondTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                CommentOutboxAdapter.self, name: "CommentOutbox", kind: .adopter,
                summary: "Thirty-second-trial actor over an append-only JSON Lines journal, UUID keys stored at "
                    + "enqueue, up to 3 sends at once in a task group with one per post, seeded equal-jitter "
                    + "backoff on the injected clock, a drain Task that enqueue starts, IETF-draft 409s."),
            .queue(
                BuggyCommentOutboxAdapter.self, name: "BuggyCommentOutbox", kind: .mutant,
                summary: "The comment outbox written again from its bug's description: a relaunch restores every "
                    + "entry with a fresh key in memory while the journal keeps the original one.",
                ledger: [
                    .fails("Q1", because: "the relaunched queue sends a stored task under a key other than the one chosen at submit"),
                    .fails("Q3", because: "the resend after the crash carries a new key"),
                ]),
        ]
    }

    /// The thirty-sixth trial's outboxes, written from the docs alone (see
    /// `OutsideTrial/WorkOrderOutbox/README.md`).
    static var thirtySixthTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                WorkOrderOutboxAdapter.self, name: "WorkOrderOutbox", kind: .adopter,
                summary: "Thirty-sixth-trial actor writing one JSON file per change, a UUID key made at enqueue and "
                    + "sent in a custom header, a snake_case envelope built once, up to 3 sends at once across work "
                    + "orders and one at a time per order, seeded equal-jitter backoff capped at 60 s, 409 stops."),
            .queue(
                BuggyWorkOrderOutboxAdapter.self, name: "BuggyWorkOrderOutbox", kind: .mutant,
                summary: "The work-order outbox written again from its bug's description by another author: its "
                    + "stored record's CodingKeys leave out the key, so every read of a change's file (a relaunch, "
                    + "or the adapter's reader) makes a fresh UUID.",
                ledger: [
                    .fails("Q1", because: "the key is not in the file: the relaunched queue sends op-1 under a fresh UUID"),
                    .blocked("Q2", by: "Q1", because: "storage shows another key for op-1 while its first request is in flight"),
                    .blocked("Q3", by: "Q1", because: "storage shows another key for op-1 while its first request is in flight"),
                    .blocked("Q4", by: "Q1", because: "two reads of the stopped task's file show two keys"),
                    .blocked("Q8", by: "Q1", because: "storage shows another key for op-1 while its first request is in flight"),
                ]),
        ]
    }

    /// The thirty-eighth trial's queues, written from the docs alone (see
    /// `OutsideTrial/NoteSyncQueue/README.md`).
    static var thirtyEighthTrialQueues: [ImplementationUnderCheck] {
        [
            .queue(
                NoteSyncQueueAdapter.self, name: "NoteSyncQueue", kind: .adopter,
                summary: "Thirty-eighth-trial @MainActor class with one JSON file for the whole queue, a completion-"
                    + "handler transport that calls back on a background queue, one request at a time, and edits "
                    + "merged into a pending update of the same note only while no request has carried its key."),
            .queue(
                BuggyNoteSyncQueueAdapter.self, name: "BuggyNoteSyncQueue", kind: .mutant,
                summary: "The notes sync queue written again by its author with one planted bug: an edit made while "
                    + "the note's previous edit is in flight is merged into it, so a retry sends the new body under "
                    + "the old key, and a success completes the edit unsent.",
                ledger: [
                    .fails("Q2", because: "an edit made while the update's request is in flight is sent under its key after a 503")
                ]),
        ]
    }
}
