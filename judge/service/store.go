package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/bytesize"
)

// Names in JetStream (see the package doc).
const (
	jobsStream      = "JUDGE_JOBS"
	jobsSubject     = "judge.jobs."
	gradersConsumer = "graders"

	bucketSubmissions = "judge-submissions"
	bucketJudgings    = "judge-judgings"
	bucketProgress    = "judge-progress"
	bucketWorkers     = "judge-workers"
	bucketRejudges    = "judge-rejudges"
	bucketRejudgings  = "judge-rejudgings"
	bucketProblems    = "judge-problems"

	objSources     = "judge-sources"
	objExecutables = "judge-executables"
	objPackages    = "judge-packages"
	objReports     = "judge-reports"
)

// Consumer settings, and why.
const (
	// AckWait is how long a job may go without word from its worker before
	// JetStream hands it to another: workers send InProgress every
	// AckWait/3, so only a dead or cut-off worker misses it.
	AckWait = 30 * time.Second
	// MaxDeliver bounds the deliveries of one job message. A worker that
	// gets the last delivery grades nothing if every earlier try died: it
	// stores a JE judging listing them (see maxTries).
	MaxDeliver = 4
	// maxTries is the number of attempts that may die before the job ends
	// as JE.
	maxTries = MaxDeliver - 1
	// workerTTL is how long a heartbeat stays in judge-workers.
	workerTTL = 30 * time.Second
	// dedupWindow is how long JetStream remembers a job's Nats-Msg-Id.
	dedupWindow = time.Hour
)

// StoreConfig sets up the JetStream layout.
type StoreConfig struct {
	Replicas   int           // 0: 1
	QueueLimit int           // jobs waiting at most; 0: 10000
	AckWait    time.Duration // 0: AckWait (tests use less)
	// Duplicates is how long a job's Nats-Msg-Id is remembered; 0: an
	// hour (tests use less).
	Duplicates time.Duration
	// Limits bound the streams; zero fields: DefaultLimits's.
	Limits StoreLimits
	// Bind looks the layout up instead of creating it, waiting for a
	// server to create it: workers must not change the replication the
	// server chose.
	Bind bool
}

// StoreLimits bound what JetStream keeps, each stream on its own: a write
// past a bound is refused (the API says 507), nothing is thrown away, but
// for the executable cache, whose builds expire after CacheAge (and which,
// full, caches no more builds until some expire).
type StoreLimits struct {
	Submissions bytesize.Size // each of judge-submissions, judge-judgings, judge-progress
	Small       bytesize.Size // each of judge-workers, judge-rejudges, judge-problems
	Sources     bytesize.Size // judge-sources
	Reports     bytesize.Size // judge-reports: reports and failures
	Packages    bytesize.Size // judge-packages: every uploaded version
	Jobs        bytesize.Size // JUDGE_JOBS (also bounded to QueueLimit jobs)
	Executables bytesize.Size // judge-executables, the build cache
	CacheAge    time.Duration // a cached build's life
}

// ScaledLimits are limits for a store of about twice size on disk and a
// build cache of cache: the reports get size, the sources and the packages
// a quarter each, each of the submissions' buckets a sixteenth, the small
// buckets a 128th (at least 64 MiB), the jobs 256 MiB; cached builds live
// a week.
func ScaledLimits(size, cache bytesize.Size) StoreLimits {
	return StoreLimits{
		Submissions: size / 16, Small: max(size/128, 64*bytesize.MiB), Sources: size / 4, Reports: size,
		Packages: size / 4, Jobs: 256 * bytesize.MiB, Executables: cache, CacheAge: 7 * 24 * time.Hour,
	}
}

// DefaultLimits are ScaledLimits(16 GiB, 4 GiB): about 32 GiB of records
// and 4 GiB of builds at most.
var DefaultLimits = ScaledLimits(16*bytesize.GiB, 4*bytesize.GiB)

// Total is what JetStream reserves for the layout under l.
func (l StoreLimits) Total() bytesize.Size {
	l = l.orDefault()
	return 3*l.Submissions + 3*l.Small + l.Sources + l.Reports + l.Packages + l.Jobs + l.Executables
}

// orDefault fills the zero fields of l from DefaultLimits.
func (l StoreLimits) orDefault() StoreLimits {
	d := DefaultLimits
	for _, f := range []struct{ v, def *bytesize.Size }{
		{&l.Submissions, &d.Submissions}, {&l.Small, &d.Small}, {&l.Sources, &d.Sources}, {&l.Reports, &d.Reports},
		{&l.Packages, &d.Packages}, {&l.Jobs, &d.Jobs}, {&l.Executables, &d.Executables},
	} {
		if *f.v <= 0 {
			*f.v = *f.def
		}
	}
	if l.CacheAge <= 0 {
		l.CacheAge = d.CacheAge
	}
	return l
}

// Store is the service's view of JetStream: the job stream and its
// consumer, the buckets and the object stores.
type Store struct {
	nc *nats.Conn
	js jetstream.JetStream

	jobs        jetstream.Stream
	submissions jetstream.KeyValue
	judgings    jetstream.KeyValue
	progress    jetstream.KeyValue
	workers     jetstream.KeyValue
	rejudges    jetstream.KeyValue
	rejudgings  jetstream.KeyValue
	problems    jetstream.KeyValue

	sources     jetstream.ObjectStore
	executables jetstream.ObjectStore
	packages    jetstream.ObjectStore
	reports     jetstream.ObjectStore

	queueLimit int
	ackWait    time.Duration
}

// OpenStore creates (or updates) the layout and returns the Store. It waits
// for JetStream to answer, for up to a minute (a cluster may still be
// electing its leaders); with Bind, until ctx ends.
func OpenStore(ctx context.Context, nc *nats.Conn, cfg StoreConfig) (*Store, error) {
	if cfg.Replicas <= 0 {
		cfg.Replicas = 1
	}
	if cfg.QueueLimit <= 0 {
		cfg.QueueLimit = 10000
	}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	if cfg.AckWait <= 0 {
		cfg.AckWait = AckWait
	}
	if cfg.Duplicates <= 0 {
		cfg.Duplicates = dedupWindow
	}
	cfg.Limits = cfg.Limits.orDefault()
	s := &Store{nc: nc, js: js, queueLimit: cfg.QueueLimit, ackWait: cfg.AckWait}
	if !cfg.Bind {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Minute)
		defer cancel()
	}
	for {
		if cfg.Bind {
			err = s.bind(ctx)
		} else {
			err = s.create(ctx, cfg)
		}
		if err == nil {
			return s, nil
		}
		var apiErr *jetstream.APIError
		if errors.As(err, &apiErr) && apiErr.ErrorCode == 10047 { // JSInsufficientResourcesErr
			return nil, fmt.Errorf("setting up JetStream: %w (its limits reserve %s: give its servers more room, max_file_store, or lower --store-size and --cache-size)",
				err, cfg.Limits.Total())
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("setting up JetStream: %w", err)
		case <-time.After(500 * time.Millisecond):
		}
	}
}

func (s *Store) create(ctx context.Context, cfg StoreConfig) error {
	var err error
	s.jobs, err = s.js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        jobsStream,
		Description: "grading jobs: one message per grading request",
		Subjects:    []string{jobsSubject + ">"},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
		Replicas:    cfg.Replicas,
		Duplicates:  cfg.Duplicates,
		MaxMsgs:     int64(cfg.QueueLimit),
		MaxBytes:    int64(cfg.Limits.Jobs),
		Discard:     jetstream.DiscardNew,
	})
	if err != nil {
		return fmt.Errorf("stream %s: %w", jobsStream, err)
	}
	_, err = s.jobs.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
		Durable:       gradersConsumer,
		Description:   "the grading workers",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       cfg.AckWait,
		MaxDeliver:    MaxDeliver,
		MaxAckPending: 10000,
		Replicas:      cfg.Replicas,
	})
	if err != nil {
		return fmt.Errorf("consumer %s: %w", gradersConsumer, err)
	}
	lim := cfg.Limits
	kvs := []struct {
		kv   *jetstream.KeyValue
		name string
		ttl  time.Duration
		max  bytesize.Size
	}{
		{&s.submissions, bucketSubmissions, 0, lim.Submissions},
		{&s.judgings, bucketJudgings, 0, lim.Submissions},
		{&s.progress, bucketProgress, 0, lim.Submissions},
		{&s.workers, bucketWorkers, workerTTL, lim.Small},
		{&s.rejudges, bucketRejudges, 0, lim.Small},
		{&s.rejudgings, bucketRejudgings, 0, lim.Small},
		{&s.problems, bucketProblems, 0, lim.Small},
	}
	for _, b := range kvs {
		*b.kv, err = s.js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
			Bucket: b.name, TTL: b.ttl, MaxBytes: int64(b.max), Replicas: cfg.Replicas, Storage: jetstream.FileStorage,
		})
		if err != nil {
			return fmt.Errorf("bucket %s: %w", b.name, err)
		}
	}
	objs := []struct {
		obs  *jetstream.ObjectStore
		name string
		max  bytesize.Size
		ttl  time.Duration
	}{
		{&s.sources, objSources, lim.Sources, 0}, {&s.executables, objExecutables, lim.Executables, lim.CacheAge},
		{&s.packages, objPackages, lim.Packages, 0}, {&s.reports, objReports, lim.Reports, 0},
	}
	for _, o := range objs {
		*o.obs, err = s.js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
			Bucket: o.name, MaxBytes: int64(o.max), TTL: o.ttl, Replicas: cfg.Replicas, Storage: jetstream.FileStorage,
		})
		if err != nil {
			return fmt.Errorf("object store %s: %w", o.name, err)
		}
	}
	if cfg.Replicas > 1 {
		return s.leaderReads(ctx)
	}
	return nil
}

// leaderReads turns off direct gets on the buckets' streams and binds the
// buckets again. A direct get may be answered by a replica that has not
// yet seen the latest write: a client that submits and then asks would be
// told its submission does not exist. With direct gets off, every read
// goes to the stream's leader, which has.
func (s *Store) leaderReads(ctx context.Context) error {
	var names []string
	for _, b := range []string{bucketSubmissions, bucketJudgings, bucketProgress, bucketWorkers, bucketRejudges, bucketProblems} {
		names = append(names, "KV_"+b)
	}
	for _, o := range []string{objSources, objExecutables, objPackages, objReports} {
		names = append(names, "OBJ_"+o)
	}
	for _, n := range names {
		st, err := s.js.Stream(ctx, n)
		if err != nil {
			return fmt.Errorf("stream %s: %w", n, err)
		}
		cfg := st.CachedInfo().Config
		if !cfg.AllowDirect {
			continue
		}
		cfg.AllowDirect = false
		if _, err := s.js.UpdateStream(ctx, cfg); err != nil {
			return fmt.Errorf("stream %s: %w", n, err)
		}
	}
	return s.bind(ctx)
}

// bind finds the layout a server made.
func (s *Store) bind(ctx context.Context) error {
	var err error
	if s.jobs, err = s.js.Stream(ctx, jobsStream); err != nil {
		return fmt.Errorf("stream %s: %w", jobsStream, err)
	}
	for _, b := range []struct {
		kv   *jetstream.KeyValue
		name string
	}{{&s.submissions, bucketSubmissions}, {&s.judgings, bucketJudgings}, {&s.progress, bucketProgress},
		{&s.workers, bucketWorkers}, {&s.rejudges, bucketRejudges}, {&s.problems, bucketProblems}} {
		if *b.kv, err = s.js.KeyValue(ctx, b.name); err != nil {
			return fmt.Errorf("bucket %s: %w", b.name, err)
		}
	}
	for _, o := range []struct {
		obs  *jetstream.ObjectStore
		name string
	}{{&s.sources, objSources}, {&s.executables, objExecutables}, {&s.packages, objPackages}, {&s.reports, objReports}} {
		if *o.obs, err = s.js.ObjectStore(ctx, o.name); err != nil {
			return fmt.Errorf("object store %s: %w", o.name, err)
		}
	}
	return nil
}

// Executables is the executable cache, for the engine.
func (s *Store) Executables() jetstream.ObjectStore { return s.executables }

// Ping says whether JetStream answers.
func (s *Store) Ping(ctx context.Context) error {
	_, err := s.js.AccountInfo(ctx)
	return err
}

// getJSON reads a key into v; the revision lets the caller update it.
func getJSON(ctx context.Context, kv jetstream.KeyValue, key string, v any) (uint64, error) {
	e, err := kv.Get(ctx, key)
	if err != nil {
		return 0, err
	}
	if err := json.Unmarshal(e.Value(), v); err != nil {
		return 0, fmt.Errorf("%s/%s: %w", kv.Bucket(), key, err)
	}
	return e.Revision(), nil
}

// errNoChange tells update that f left the value alone.
var errNoChange = errors.New("no change")

// update applies f to the value of key and writes it back if no one else
// wrote in between, trying again if someone did. f returning errNoChange
// writes nothing; a missing key is jetstream.ErrKeyNotFound.
func update[T any](ctx context.Context, kv jetstream.KeyValue, key string, f func(*T) error) (*T, error) {
	for {
		var v T
		rev, err := getJSON(ctx, kv, key, &v)
		if err != nil {
			return nil, err
		}
		if err := f(&v); err != nil {
			if errors.Is(err, errNoChange) {
				return &v, nil
			}
			return nil, err
		}
		b, err := json.Marshal(&v)
		if err != nil {
			return nil, err
		}
		_, err = kv.Update(ctx, key, b, rev)
		if err == nil {
			return &v, nil
		}
		if !isWrongRevision(err) {
			return nil, err
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
}

func isWrongRevision(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}

func putJSON(ctx context.Context, kv jetstream.KeyValue, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = kv.Put(ctx, key, b)
	return err
}

// createJSON writes key only if it does not exist; an existing key is
// jetstream.ErrKeyExists.
func createJSON(ctx context.Context, kv jetstream.KeyValue, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = kv.Create(ctx, key, b)
	return err
}

// Submission reads a submission's record.
func (s *Store) Submission(ctx context.Context, id string) (*Submission, error) {
	var sub Submission
	if _, err := getJSON(ctx, s.submissions, id, &sub); err != nil {
		return nil, err
	}
	return &sub, nil
}

// Judging reads the judging of one request of a submission.
func (s *Store) Judging(ctx context.Context, id string, request int) (*Judging, error) {
	var j Judging
	if _, err := getJSON(ctx, s.judgings, judgingKey(id, request), &j); err != nil {
		return nil, err
	}
	return &j, nil
}

func judgingKey(id string, request int) string { return fmt.Sprintf("%s.%d", id, request) }

// isStoreFull says whether a write was refused because its stream is at
// its MaxBytes.
func isStoreFull(err error) bool {
	var apiErr *jetstream.APIError
	// JSStreamStoreFailedF (10077) "maximum bytes exceeded": DiscardNew
	// at MaxBytes
	return errors.As(err, &apiErr) && apiErr.ErrorCode == 10077 && strings.Contains(apiErr.Description, "maximum bytes")
}

func isQueueFull(err error) bool {
	var apiErr *jetstream.APIError
	// JSStreamStoreFailedF (10077) "maximum messages exceeded": DiscardNew
	// at MaxMsgs
	return errors.As(err, &apiErr) && apiErr.ErrorCode == 10077 && strings.Contains(apiErr.Description, "maximum messages")
}

// liveWorkers lists the workers with a live heartbeat, by name.
func (s *Store) liveWorkers(ctx context.Context) ([]WorkerInfo, error) {
	keys, err := s.workers.Keys(ctx)
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		return []WorkerInfo{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := []WorkerInfo{}
	for _, k := range keys {
		var wi WorkerInfo
		_, err := getJSON(ctx, s.workers, k, &wi)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			continue // gone in between
		}
		if err != nil {
			return nil, fmt.Errorf("worker %s: %w", k, err)
		}
		out = append(out, wi)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
