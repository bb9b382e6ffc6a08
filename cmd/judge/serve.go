package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge/contest"
	"github.com/optjudge/optjudge/judge/maintain"
	"github.com/optjudge/optjudge/judge/sandbox"
	"github.com/optjudge/optjudge/judge/service"
	"github.com/optjudge/optjudge/judge/service/store"
)

var cmdServe = &command{
	Name:      "serve",
	UsageLine: "serve [--addr ADDR] [--data DIR] [--workers N] [--tokens FILE] [--contest DIR] [--nats-listen ADDR] [--nats URLS --replicas R]",
	Short:     "run the grading service: the HTTP API, the queue and workers",
	Long: `
Serve runs the grading service: the HTTP API v1 and the web pages on
--addr (see docs/service.md and judge/service/openapi.yaml), a queue in NATS
JetStream and --workers grading workers in the same process.

Without --nats it starts an embedded NATS server storing under --data
(default ./judge-data); outside workers (judge worker) reach it only when
--nats-listen is given, and on anything but loopback only with a token
(--nats-token or $JUDGE_NATS_TOKEN; TLS with --nats-tls-cert and
--nats-tls-key). With --nats it uses that cluster and starts no server;
--replicas sets the streams' replication (3 on a 3-node cluster).

Users come from --tokens FILE (a YAML list of {name, token, role}, role
contestant or admin); on the pages they log in with their token. Without
it every request is a local admin, there is no login, and the server
refuses to listen on anything but loopback.

What a contestant sees of a secret test (not a sample) is --feedback:
message (the default) shows its verdict, time, memory, exit code and a
message in the judge's own words (the limit it broke, the exit code or
signal); verdict shows only its verdict, time, memory and exit code (for
contests). Never a word of the test's files, the program's output or
stderr, or the checker's message, nor a drawing of the test; admins see
everything.

An uploaded problem package (POST /api/v1/problems, admin) may have
programs (output validators, interactors, graders, input and answer
validators): the server verifies the upload with them as judge verify
does (its input validators on its inputs, its output validator on its
answers), the workers build them from the package once per version, and
every one runs in a box of its own. A worker that cannot build one (a
compiler missing) hands the job to another; /metrics is an admin's.

--problems DIR may hold a contest: DIR/contest.yaml (its name) and
DIR/problems.yaml (its problems in order, with their labels and colours,
as BAPCtools and DOMjudge write them). The pages and the API list the
problems in that order with their labels; a problem it does not list
comes after them.

--contest DIR runs a contest from a contest package (the ICPC's Contest
Package format): DIR/contest.yaml (start_time, duration,
scoreboard_freeze_duration, penalty_time, medals), problems.yaml,
teams.json, groups.json, organizations.json, accounts.yaml (each
account's password is its token; without --tokens they are the users)
and awards.json, and the problem packages in DIR/<id>/. Before the start
no problem is shown to the teams; after the end no submission is taken;
the scoreboard is frozen for the last scoreboard_freeze_duration until an
admin thaws it; the ICPC Contest API is served under /api/contests/<id>
(teams may submit through it). The jury rejudges with a preview on
/rejudgings. Only the contest's problems are shown, unless
--demo-problems. docs/contest.md is a host's tutorial.

The store is bounded: about twice --store-size of records and
--cache-size of compiled executables (which expire after a week); a full
store refuses with 507. The embedded NATS server fsyncs every --nats-sync:
a killed process loses nothing, a power cut up to that much of the last
writes; always fsyncs before each acknowledgement.

Grading is lazy (it stops at the first test not accepted) unless --full.
SIGTERM or SIGINT: stop accepting, finish or hand back the gradings, exit.

Examples:

	judge serve
	judge serve --addr :8080 --tokens tokens.yaml --nats-listen 0.0.0.0:4222 --workers 0
	judge serve --nats nats://a:4222,nats://b:4222,nats://c:4222 --replicas 3 --tokens tokens.yaml

Exit codes: 0 after a clean shutdown; 2 usage error or failure.
`,
	Flags: func(fs *flag.FlagSet) {
		fs.String("addr", "127.0.0.1:8080", "serve HTTP on `ADDR`")
		fs.String("data", "judge-data", "keep the embedded NATS server's data and caches in `DIR`")
		fs.Int("workers", 1, "grading workers in this process (0: an API-only node)")
		fs.String("tokens", "", "read the users from `FILE` (YAML: name, token, role)")
		fs.String("contest", "", "run the contest of the contest package `DIR` (contest.yaml, problems.yaml, teams, accounts, the problems)")
		fs.Bool("demo-problems", false, "with --contest, show the problems outside the contest too")
		fs.String("max-source", "256K", "largest source accepted, `SIZE`")
		fs.Int("queue-limit", 10000, "grading requests waiting at most (then 429)")
		fs.String("store-size", "16G", "bound the stored records to about twice `SIZE` (reports SIZE, sources and packages a quarter each, ...; then 507)")
		fs.String("cache-size", "4G", "bound the compiled executables' cache to `SIZE` (builds expire after a week)")
		fs.String("feedback", "message", "what contestants see of a secret test, `MODE`: message (the limit broken, the exit code or signal, in the judge's words) or verdict (verdict, time, memory, exit code only)")
		fs.String("nats-listen", "", "let outside workers reach the embedded NATS server on `ADDR`")
		fs.String("nats-tls-cert", "", "the embedded NATS server's TLS certificate `FILE`")
		fs.String("nats-tls-key", "", "the embedded NATS server's TLS key `FILE`")
		fs.String("nats-sync", "2m", "how often the embedded NATS server fsyncs its writes: a `DURATION`, or always (before each acknowledgement)")
		fs.Int("replicas", 1, "replicate streams and buckets `R` times (on a cluster)")
		natsClientFlags(fs)
		workerFlags(fs)
	},
	Run: runServe,
}

// natsClientFlags are the flags that say how to reach NATS.
func natsClientFlags(fs *flag.FlagSet) {
	fs.String("nats", "", "connect to the NATS servers at `URLS` (comma-separated)")
	fs.String("nats-token", "", "NATS token (default $JUDGE_NATS_TOKEN)")
	fs.String("nats-creds", "", "NATS user credentials `FILE`")
	fs.String("nats-ca", "", "verify the NATS servers' TLS certificates with the CA `FILE`")
}

// workerFlags are the grading flags of serve and worker.
func workerFlags(fs *flag.FlagSet) {
	fs.Bool("full", false, "run every test (default: stop at the first that is not AC)")
	fs.Int("box-uid", 0, "first uid of the sandbox's boxes, to run several worker processes on one machine (default 60000)")
}

func natsToken(fs *flag.FlagSet) string {
	if t := flagValue(fs, "nats-token").(string); t != "" {
		return t
	}
	return os.Getenv("JUDGE_NATS_TOKEN")
}

// serveConfig is serve's flags, checked.
type serveConfig struct {
	addr, data string
	workers    int
	tokens     []service.Token
	maxSource  bytesize.Size
	feedback   service.Feedback
	limits     store.Limits
	syncAlways bool
	syncEvery  time.Duration
	contest    *contest.Contest
	demo       bool
}

func (e *env) serveConfig(fs *flag.FlagSet) (*serveConfig, error) {
	c := &serveConfig{addr: flagValue(fs, "addr").(string), data: flagValue(fs, "data").(string), workers: flagValue(fs, "workers").(int)}
	if c.workers < 0 {
		return nil, fmt.Errorf("--workers %d: want 0 or more", c.workers)
	}
	size, err := bytesize.Parse(flagValue(fs, "max-source").(string))
	if err != nil || size <= 0 {
		return nil, fmt.Errorf("--max-source %s: want e.g. 256K or 1M", flagValue(fs, "max-source"))
	}
	c.maxSource = size
	var sizes [2]bytesize.Size
	for i, name := range []string{"store-size", "cache-size"} {
		v := flagValue(fs, name).(string)
		if sizes[i], err = bytesize.Parse(v); err != nil || sizes[i] < 64*bytesize.MiB {
			return nil, fmt.Errorf("--%s %s: want at least 64M, e.g. 16G", name, v)
		}
	}
	c.limits = store.ScaledLimits(sizes[0], sizes[1])
	if v := flagValue(fs, "nats-sync").(string); v == "always" {
		c.syncAlways = true
	} else if c.syncEvery, err = time.ParseDuration(v); err != nil || c.syncEvery <= 0 {
		return nil, fmt.Errorf("--nats-sync %s: want always or a duration such as 2m", v)
	}
	if c.feedback, err = service.ParseFeedback(flagValue(fs, "feedback").(string)); err != nil {
		return nil, fmt.Errorf("--feedback: %w", err)
	}
	if dir := flagValue(fs, "contest").(string); dir != "" {
		if c.contest, err = contest.Load(dir); err != nil {
			return nil, fmt.Errorf("--contest: %w", err)
		}
		if e.problemsDir == "" {
			e.problemsDir = dir
		}
	}
	c.demo = flagValue(fs, "demo-problems").(bool)
	if f := flagValue(fs, "tokens").(string); f != "" {
		if c.tokens, err = service.LoadTokens(f); err != nil {
			return nil, err
		}
	} else if c.contest != nil && len(c.contest.Accounts) > 0 {
		c.tokens = service.ContestTokens(c.contest)
	} else if !service.IsLoopbackAddr(c.addr) {
		return nil, fmt.Errorf("--addr %s: without --tokens every request is an admin, so the server listens on loopback only (127.0.0.1:PORT)", c.addr)
	}
	if flagValue(fs, "nats").(string) != "" && flagValue(fs, "nats-listen").(string) != "" {
		return nil, errors.New("--nats-listen is for the embedded server; with --nats no server is started")
	}
	return c, nil
}

func runServe(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) != 0 {
		return e.usageError("want no arguments, got %d", len(args))
	}
	c, err := e.serveConfig(fs)
	if err != nil {
		return e.usageError("%v", err)
	}
	logger := log.New(e.stderr, "", log.LstdFlags)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	nc, ns, err := e.serveNATS(fs, c, logger)
	if err != nil {
		return e.fail(err)
	}
	defer func() {
		nc.Drain()
		if ns != nil {
			ns.Shutdown()
			ns.WaitForShutdown()
		}
	}()
	st, err := service.OpenStore(ctx, nc, store.Config{Replicas: flagValue(fs, "replicas").(int), QueueLimit: flagValue(fs, "queue-limit").(int),
		Limits: c.limits})
	if err != nil {
		return e.fail(err)
	}
	lib, err := service.NewLibrary(st, e.problemsDir, filepath.Join(c.data, "problems"))
	if err != nil {
		return e.fail(err)
	}
	defer lib.Close()
	if c := lib.Contest(); c != nil {
		logger.Printf("contest %q: %d problems in %s", c.Name, len(c.Problems), filepath.Join(e.problemsDir, "problems.yaml"))
		for _, w := range c.Warnings {
			logger.Printf("warning: %s", w)
		}
	}
	// the server first: it follows the queue (the advisories of jobs
	// whose deliveries ran out) before a worker takes a job
	if c.contest != nil {
		service.TeamsFromTokens(c.contest, c.tokens)
		logger.Printf("contest %s: %d problems, %d teams, starts %s", c.contest.ID, len(c.contest.Problems), len(c.contest.Teams), contestStart(c.contest))
	}
	api := service.NewServer(service.ServerConfig{Store: st, Library: lib, Tokens: c.tokens, MaxSource: c.maxSource,
		Feedback: c.feedback, Verify: verifyUpload, Log: logger, Contest: c.contest, DemoProblems: c.demo})
	defer api.Close()
	workers, err := e.startWorkers(ctx, fs, st, lib, c.workers, "", filepath.Join(c.data, "tmp"), logger)
	if err != nil {
		return e.fail(err)
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		workers.stop()
		return e.fail(err)
	}
	hs := api.HTTPServer(c.addr)
	fmt.Fprintf(e.stderr, "judge serve: http://%s (%d workers, data in %s)\n", ln.Addr(), c.workers, c.data)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case <-ctx.Done():
	case err = <-served:
	}
	fmt.Fprintln(e.stderr, "judge serve: shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	hs.Shutdown(sctx)
	workers.stop()
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return e.fail(err)
	}
	return exitOK
}

// serveNATS starts the embedded server (unless --nats) and connects.
func (e *env) serveNATS(fs *flag.FlagSet, c *serveConfig, logger *log.Logger) (*nats.Conn, *server.Server, error) {
	cc := service.ConnConfig{Name: "judge serve", URLs: flagValue(fs, "nats").(string), Token: natsToken(fs),
		Creds: flagValue(fs, "nats-creds").(string), CA: flagValue(fs, "nats-ca").(string)}
	var ns *server.Server
	if cc.URLs == "" {
		var err error
		ns, err = service.StartServer(service.NATSConfig{
			Dir: filepath.Join(c.data, "nats"), Listen: flagValue(fs, "nats-listen").(string), Token: cc.Token,
			TLSCert: flagValue(fs, "nats-tls-cert").(string), TLSKey: flagValue(fs, "nats-tls-key").(string),
			MaxStore: c.limits.Total() + bytesize.GiB, SyncAlways: c.syncAlways, SyncInterval: c.syncEvery,
		})
		if err != nil {
			return nil, nil, err
		}
		if l := flagValue(fs, "nats-listen").(string); l != "" {
			fmt.Fprintf(e.stderr, "judge serve: nats %s\n", ns.ClientURL())
		}
		cc.Server = ns
	}
	nc, err := service.Connect(cc)
	if err != nil {
		if ns != nil {
			ns.Shutdown()
		}
		return nil, nil, err
	}
	return nc, ns, nil
}

// workerPool is the workers of a process and their engine.
type workerPool struct {
	cancel context.CancelFunc
	wg     sync.WaitGroup
	engine service.Engine
}

// stop asks every worker to finish or hand back its job and waits.
func (p *workerPool) stop() {
	p.cancel()
	p.wg.Wait()
	if p.engine != nil {
		p.engine.Close()
	}
}

// startWorkers starts n workers sharing one engine (one sandbox).
func (e *env) startWorkers(ctx context.Context, fs *flag.FlagSet, st *service.Store, lib *service.Library, n int, name, tmp string, logger *log.Logger) (*workerPool, error) {
	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	context.AfterFunc(ctx, cancel)
	p := &workerPool{cancel: cancel}
	if n == 0 {
		return p, nil
	}
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return nil, err
	}
	eng, err := service.NewEngine(service.EngineConfig{
		Sandbox: sandbox.Options{FirstUID: flagValue(fs, "box-uid").(int)}, Full: flagValue(fs, "full").(bool),
		TempDir: tmp, Path: os.Getenv("PATH"), Home: home(), Executables: st.Executables,
	})
	if err != nil {
		return nil, err
	}
	p.engine = eng
	host, _ := os.Hostname()
	if name == "" {
		name = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	for i := 1; i <= n; i++ {
		wname := name
		if n > 1 {
			wname = fmt.Sprintf("%s-%d", name, i)
		}
		w := service.NewWorker(service.WorkerConfig{Name: wname, Host: host, Store: st, Library: lib, Engine: eng, TempDir: tmp, Log: logger})
		p.wg.Add(1)
		go func() { defer p.wg.Done(); w.Run(wctx) }()
	}
	logger.Printf("%d workers (%s), isolation %s", n, name, eng.Isolation())
	return p, nil
}

// verifyUpload checks an uploaded problem as judge verify does: the tests
// (samples and secret tests exist, every input has its answer), every
// input against the input validators (the package's, built and run in
// boxes of their own, or the built-in one), every answer against the
// output validator (the package's program, boxed, or the built-in
// checker) and, for a native problem, the reference. The package's example
// submissions are not graded (an upload is verified within minutes).
func verifyUpload(ctx context.Context, p *service.Problem) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	q := *p.Problem
	q.Package.FS = withoutSubmissions{p.Package.FS}
	q.Package.StaticValidator = nil // it judges submissions only
	j, err := newJudge(nil)
	if err != nil {
		return err
	}
	defer j.Close()
	rep, err := maintain.Verify(ctx, &q, maintain.VerifyOptions{Judge: j})
	if err != nil {
		return err
	}
	var errs []string
	for _, f := range rep.Findings {
		// the submissions are hidden: that there are none is no finding
		if f.Severity == maintain.Error && filepath.Base(f.File) != "submissions" {
			errs = append(errs, f.String())
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// contestStart says when a contest starts, for the log.
func contestStart(c *contest.Contest) string {
	if c.Start.IsZero() {
		return "never (contest.yaml has no start_time)"
	}
	return contest.FormatTime(c.Start)
}
