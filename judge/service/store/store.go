// Package store is the grading service's JetStream layout: the job stream
// and its consumer, the key-value buckets of the records and the object
// stores of the sources, builds, packages and reports, with their limits
// and replication; Open creates or binds it. json.go reads and writes the
// buckets' JSON records, an update at a time under the revision JetStream
// gives. The records themselves (a Submission, a Judging, ...) are package
// service's: this package knows their keys' buckets, not their fields.
package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/bytesize"
)

// Names in JetStream (see package service's doc).
const (
	JobsStream      = "JUDGE_JOBS"
	JobsSubject     = "judge.jobs."
	GradersConsumer = "graders"

	BucketSubmissions = "judge-submissions"
	BucketJudgings    = "judge-judgings"
	BucketProgress    = "judge-progress"
	BucketWorkers     = "judge-workers"
	BucketRejudges    = "judge-rejudges"
	BucketRejudgings  = "judge-rejudgings"
	BucketProblems    = "judge-problems"

	ObjSources     = "judge-sources"
	ObjExecutables = "judge-executables"
	ObjPackages    = "judge-packages"
	ObjReports     = "judge-reports"
)

// Consumer settings, and why.
const (
	// AckWait is how long a job may go without word from its worker before
	// JetStream hands it to another: workers send InProgress every
	// AckWait/3, so only a dead or cut-off worker misses it.
	AckWait = 30 * time.Second
	// MaxDeliver bounds the deliveries of one job message. A worker that
	// gets the last delivery grades nothing if every earlier try died: it
	// stores a JE judging listing them (see MaxTries).
	MaxDeliver = 4
	// MaxTries is the number of attempts that may die before the job ends
	// as JE.
	MaxTries = MaxDeliver - 1
	// WorkerTTL is how long a heartbeat stays in judge-workers.
	WorkerTTL = 30 * time.Second
	// DedupWindow is how long JetStream remembers a job's Nats-Msg-Id.
	DedupWindow = time.Hour
)

// Config sets up the JetStream layout.
type Config struct {
	Replicas   int           // 0: 1
	QueueLimit int           // jobs waiting at most; 0: 10000
	AckWait    time.Duration // 0: AckWait (tests use less)
	// Duplicates is how long a job's Nats-Msg-Id is remembered; 0: an
	// hour (tests use less).
	Duplicates time.Duration
	// Limits bound the streams; zero fields: DefaultLimits's.
	Limits Limits
	// Bind looks the layout up instead of creating it, waiting for a
	// server to create it: workers must not change the replication the
	// server chose.
	Bind bool
}

// Limits bound what JetStream keeps, each stream on its own: a write
// past a bound is refused (the API says 507), nothing is thrown away, but
// for the executable cache, whose builds expire after CacheAge (and which,
// full, caches no more builds until some expire).
type Limits struct {
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
func ScaledLimits(size, cache bytesize.Size) Limits {
	return Limits{
		Submissions: size / 16, Small: max(size/128, 64*bytesize.MiB), Sources: size / 4, Reports: size,
		Packages: size / 4, Jobs: 256 * bytesize.MiB, Executables: cache, CacheAge: 7 * 24 * time.Hour,
	}
}

// DefaultLimits are ScaledLimits(16 GiB, 4 GiB): about 32 GiB of records
// and 4 GiB of builds at most.
var DefaultLimits = ScaledLimits(16*bytesize.GiB, 4*bytesize.GiB)

// Total is what JetStream reserves for the layout under l.
func (l Limits) Total() bytesize.Size {
	l = l.orDefault()
	return 3*l.Submissions + 3*l.Small + l.Sources + l.Reports + l.Packages + l.Jobs + l.Executables
}

// orDefault fills the zero fields of l from DefaultLimits.
func (l Limits) orDefault() Limits {
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
	NC *nats.Conn
	JS jetstream.JetStream

	Jobs        jetstream.Stream
	Submissions jetstream.KeyValue
	Judgings    jetstream.KeyValue
	Progress    jetstream.KeyValue
	Workers     jetstream.KeyValue
	Rejudges    jetstream.KeyValue
	Rejudgings  jetstream.KeyValue
	Problems    jetstream.KeyValue

	Sources     jetstream.ObjectStore
	Executables jetstream.ObjectStore // the build cache, for the engine
	Packages    jetstream.ObjectStore
	Reports     jetstream.ObjectStore

	QueueLimit int           // Config.QueueLimit, defaults applied
	AckWait    time.Duration // Config.AckWait, defaults applied
}

// Open creates (or updates) the layout and returns the Store. It waits
// for JetStream to answer, for up to a minute (a cluster may still be
// electing its leaders); with Bind, until ctx ends.
func Open(ctx context.Context, nc *nats.Conn, cfg Config) (*Store, error) {
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
		cfg.Duplicates = DedupWindow
	}
	cfg.Limits = cfg.Limits.orDefault()
	s := &Store{NC: nc, JS: js, QueueLimit: cfg.QueueLimit, AckWait: cfg.AckWait}
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

func (s *Store) create(ctx context.Context, cfg Config) error {
	var err error
	s.Jobs, err = s.JS.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        JobsStream,
		Description: "grading jobs: one message per grading request",
		Subjects:    []string{JobsSubject + ">"},
		Retention:   jetstream.WorkQueuePolicy,
		Storage:     jetstream.FileStorage,
		Replicas:    cfg.Replicas,
		Duplicates:  cfg.Duplicates,
		MaxMsgs:     int64(cfg.QueueLimit),
		MaxBytes:    int64(cfg.Limits.Jobs),
		Discard:     jetstream.DiscardNew,
	})
	if err != nil {
		return fmt.Errorf("stream %s: %w", JobsStream, err)
	}
	_, err = s.Jobs.CreateOrUpdateConsumer(ctx, jetstream.ConsumerConfig{
		Durable:       GradersConsumer,
		Description:   "the grading workers",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       cfg.AckWait,
		MaxDeliver:    MaxDeliver,
		MaxAckPending: 10000,
		Replicas:      cfg.Replicas,
	})
	if err != nil {
		return fmt.Errorf("consumer %s: %w", GradersConsumer, err)
	}
	lim := cfg.Limits
	kvs := []struct {
		kv   *jetstream.KeyValue
		name string
		ttl  time.Duration
		max  bytesize.Size
	}{
		{&s.Submissions, BucketSubmissions, 0, lim.Submissions},
		{&s.Judgings, BucketJudgings, 0, lim.Submissions},
		{&s.Progress, BucketProgress, 0, lim.Submissions},
		{&s.Workers, BucketWorkers, WorkerTTL, lim.Small},
		{&s.Rejudges, BucketRejudges, 0, lim.Small},
		{&s.Rejudgings, BucketRejudgings, 0, lim.Small},
		{&s.Problems, BucketProblems, 0, lim.Small},
	}
	for _, b := range kvs {
		*b.kv, err = s.JS.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
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
		{&s.Sources, ObjSources, lim.Sources, 0}, {&s.Executables, ObjExecutables, lim.Executables, lim.CacheAge},
		{&s.Packages, ObjPackages, lim.Packages, 0}, {&s.Reports, ObjReports, lim.Reports, 0},
	}
	for _, o := range objs {
		*o.obs, err = s.JS.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{
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
	for _, b := range []string{BucketSubmissions, BucketJudgings, BucketProgress, BucketWorkers, BucketRejudges, BucketProblems} {
		names = append(names, "KV_"+b)
	}
	for _, o := range []string{ObjSources, ObjExecutables, ObjPackages, ObjReports} {
		names = append(names, "OBJ_"+o)
	}
	for _, n := range names {
		st, err := s.JS.Stream(ctx, n)
		if err != nil {
			return fmt.Errorf("stream %s: %w", n, err)
		}
		cfg := st.CachedInfo().Config
		if !cfg.AllowDirect {
			continue
		}
		cfg.AllowDirect = false
		if _, err := s.JS.UpdateStream(ctx, cfg); err != nil {
			return fmt.Errorf("stream %s: %w", n, err)
		}
	}
	return s.bind(ctx)
}

// bind finds the layout a server made.
func (s *Store) bind(ctx context.Context) error {
	var err error
	if s.Jobs, err = s.JS.Stream(ctx, JobsStream); err != nil {
		return fmt.Errorf("stream %s: %w", JobsStream, err)
	}
	for _, b := range []struct {
		kv   *jetstream.KeyValue
		name string
	}{{&s.Submissions, BucketSubmissions}, {&s.Judgings, BucketJudgings}, {&s.Progress, BucketProgress},
		{&s.Workers, BucketWorkers}, {&s.Rejudges, BucketRejudges}, {&s.Problems, BucketProblems}} {
		if *b.kv, err = s.JS.KeyValue(ctx, b.name); err != nil {
			return fmt.Errorf("bucket %s: %w", b.name, err)
		}
	}
	for _, o := range []struct {
		obs  *jetstream.ObjectStore
		name string
	}{{&s.Sources, ObjSources}, {&s.Executables, ObjExecutables}, {&s.Packages, ObjPackages}, {&s.Reports, ObjReports}} {
		if *o.obs, err = s.JS.ObjectStore(ctx, o.name); err != nil {
			return fmt.Errorf("object store %s: %w", o.name, err)
		}
	}
	return nil
}

// Ping says whether JetStream answers.
func (s *Store) Ping(ctx context.Context) error {
	_, err := s.JS.AccountInfo(ctx)
	return err
}
