// Package service is the grading service: an HTTP API that accepts
// submissions, a queue that holds them and workers, on one machine or many,
// that grade them with the engine. Everything it keeps lives in NATS
// JetStream, embedded in `judge serve` or an existing cluster; there is no
// second database.
//
// The layout in JetStream (every name is fixed; Replicas apply to all):
//
//	stream JUDGE_JOBS         subjects judge.jobs.<submission>, work-queue
//	                          retention, deduplication by Nats-Msg-Id
//	                          (<submission>-<request>), MaxMsgs = the queue
//	                          limit with DiscardNew (a full queue refuses)
//	consumer graders          durable pull consumer shared by every worker:
//	                          explicit acks, AckWait 30 s kept alive by
//	                          InProgress while grading, MaxDeliver 4
//	kv judge-submissions      <submission> -> Submission (state, requests,
//	                          finished judgings)
//	kv judge-judgings         <submission>.<request> -> Judging, written with
//	                          Create: one finished judging per request
//	kv judge-progress         <submission> -> Progress (the current request's
//	                          attempts and finished tests), for events and
//	                          for the tries that end as JE
//	kv judge-workers          <worker> -> WorkerInfo, a heartbeat with a TTL
//	kv judge-rejudges         <rejudge> -> Rejudge
//	kv judge-rejudgings       <rejudging> -> Rejudging (with preview:
//	                          rejudging.go)
//	kv judge-problems         <problem> -> UploadedProblem (the current
//	                          uploaded version of a problem)
//	objects judge-sources     sources by their sha256
//	objects judge-executables builds by (language, compiler, source hash)
//	objects judge-packages    uploaded problem packages by content hash
//	objects judge-reports     reports by <submission>.<request>.<attempt>,
//	                          and beside a report its first failing test's
//	                          Failure (<report>.failure: message, drawing,
//	                          input and output cut) when the checker
//	                          rejected its output
//
// Every stream has a MaxBytes (store.Limits), the executables' a MaxAge too:
// a write past a bound is refused, nothing is thrown away.
//
// On a cluster (Replicas > 1) the buckets' direct gets are turned off, so
// that every read goes to the stream's leader and sees the latest write.
//
// A grading request's life, from its publication to its judging, is one
// type's, lifecycle (lifecycle.go, attempt.go), used by the API server,
// the workers and the sweeper alike; every job message is published there,
// under one rule for its Nats-Msg-Id (msgID). A submission is accepted
// (202) once its record and its job are stored; a job that cannot be
// published withdraws its record, and a record left publishing with no job
// and no attempt is withdrawn by the sweeper, never queued. A worker
// acknowledges a job only after the judging is stored, and keeps it alive
// with InProgress from the moment it takes it; a worker that dies leaves
// its job to be redelivered after AckWait; a job whose tries all died ends
// as a JE judging (judge.JEReport) that lists them (a refusal, a worker
// without the problem's version, is no try). A job whose deliveries ran
// out gets a fresh message: from the worker of its last delivery, from the
// server on JetStream's advisory, or from the server's sweeper, which looks
// at the unfinished submissions whose record has not changed for 2 x
// AckWait and queues again the ones with no job or with a delivered job no
// live worker has.
//
// What a user sees of a submission is decided in one place, sight
// (feedback.go): a contestant nothing of a secret test that came from its
// files, the program or the checker, whatever Feedback says; and which
// files of a problem's package anyone may download (sight.problemFile:
// the statements and their pictures, the attachments, the samples). An uploaded
// package runs no program of its own (see problems_api.go).
//
// The web pages (pages.go, web/) are served by the same Server, beside the
// API and with the same users; their scripts read the API's event streams.
// The problem set (problemset.go, pages_problems.go) is in the order of
// the problems directory's contest (problems.Contest), with its labels.
package service
