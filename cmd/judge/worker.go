package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/optjudge/optjudge/judge/service"
	"github.com/optjudge/optjudge/judge/service/store"
)

var cmdWorker = &command{
	Name:      "worker",
	UsageLine: "worker --nats URLS [--workers N] [--name NAME] [--problems DIR]",
	Short:     "grade submissions from the service's queue, on any machine",
	Long: `
Worker connects to the NATS servers of a grading service (judge serve with
--nats-listen, or a cluster) and grades its queued submissions, --workers
at a time. It reconnects by itself when NATS restarts or a node dies.

Problems are the embedded ones, those in --problems DIR, and uploaded
packages, fetched by content hash and kept in --cache DIR. A job whose
problem differs from this worker's copy, with no package of its hash, is
refused (and said so), never graded against other tests.

Credentials: --nats-token (or $JUDGE_NATS_TOKEN), or --nats-creds FILE;
--nats-ca FILE to verify the servers' TLS certificates.

SIGTERM or SIGINT: finish the current submissions (or hand them back
within 5 s) and exit.

Examples:

	judge worker --nats nats://judge.example.org:4222 --workers 2
	JUDGE_NATS_TOKEN=... judge worker --nats tls://a:4222,tls://b:4222 --nats-ca ca.pem

Exit codes: 0 after a clean shutdown; 2 usage error or failure.
`,
	Flags: func(fs *flag.FlagSet) {
		natsClientFlags(fs)
		workerFlags(fs)
		fs.Int("workers", 1, "grade `N` submissions at once")
		fs.String("name", "", "the worker's name (default HOST-PID)")
		fs.String("cache", "", "keep fetched problem packages in `DIR` (default the user cache directory)")
	},
	Run: runWorker,
}

func runWorker(e *env, fs *flag.FlagSet, args []string) int {
	if len(args) != 0 {
		return e.usageError("want no arguments, got %d", len(args))
	}
	urls := flagValue(fs, "nats").(string)
	if urls == "" {
		return e.usageError("--nats URLS: required")
	}
	n := flagValue(fs, "workers").(int)
	if n < 1 {
		return e.usageError("--workers %d: want at least 1", n)
	}
	cache := flagValue(fs, "cache").(string)
	if cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return e.usageError("no user cache directory: give --cache DIR")
		}
		cache = filepath.Join(dir, "optjudge", "worker")
	}
	logger := log.New(e.stderr, "", log.LstdFlags)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	nc, err := service.Connect(service.ConnConfig{Name: "judge worker", URLs: urls, Token: natsToken(fs),
		Creds: flagValue(fs, "nats-creds").(string), CA: flagValue(fs, "nats-ca").(string)})
	if err != nil {
		return e.fail(err)
	}
	defer nc.Close()
	st, err := service.OpenStore(ctx, nc, store.Config{Bind: true})
	if err != nil {
		if ctx.Err() != nil {
			return exitOK
		}
		return e.fail(err)
	}
	lib, err := service.NewLibrary(st, e.problemsDir, filepath.Join(cache, "problems"))
	if err != nil {
		return e.fail(err)
	}
	defer lib.Close()
	pool, err := e.startWorkers(ctx, fs, st, lib, n, flagValue(fs, "name").(string), filepath.Join(cache, "tmp"), logger)
	if err != nil {
		return e.fail(err)
	}
	fmt.Fprintf(e.stderr, "judge worker: grading from %s\n", urls)
	<-ctx.Done()
	fmt.Fprintln(e.stderr, "judge worker: stopping")
	pool.stop()
	return exitOK
}
