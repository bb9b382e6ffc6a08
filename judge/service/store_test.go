package service

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/optjudge/optjudge/bytesize"
	"github.com/optjudge/optjudge/judge/service/store"
)

// TestStoreLimits: every stream of the layout is bounded, the build cache
// by age too; a write past a bound is a 507 that says so.
func TestStoreLimits(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{limits: store.Limits{Sources: 64 * bytesize.KiB}})
	names := []string{store.JobsStream}
	for _, b := range []string{store.BucketSubmissions, store.BucketJudgings, store.BucketProgress, store.BucketWorkers, store.BucketRejudges, store.BucketProblems} {
		names = append(names, "KV_"+b)
	}
	for _, o := range []string{store.ObjSources, store.ObjExecutables, store.ObjPackages, store.ObjReports} {
		names = append(names, "OBJ_"+o)
	}
	for _, n := range names {
		st, err := e.store.JS.Stream(t.Context(), n)
		if err != nil {
			t.Fatal(err)
		}
		cfg := st.CachedInfo().Config
		if cfg.MaxBytes <= 0 {
			t.Errorf("stream %s: no MaxBytes", n)
		}
		if n == "OBJ_"+store.ObjExecutables && cfg.MaxAge <= 0 {
			t.Errorf("stream %s: the cache's builds never expire", n)
		}
	}
	big := strings.Repeat("# a long comment\n", 4000) + "print(1)\n" // 68 KB
	var out struct{ Error string }
	code := e.do("POST", "/api/v1/submissions", jsonBody(SubmitRequest{Problem: "clocks", Filename: "a.py", Source: big}), nil, &out)
	if code != http.StatusInsufficientStorage || !strings.Contains(out.Error, "store is full") {
		t.Errorf("a source past the store's bound: got %d %q, want 507", code, out.Error)
	}
	if code := e.do("POST", "/api/v1/submissions", jsonBody(SubmitRequest{Problem: "clocks", Filename: "a.py", Source: "print(1)\n"}), nil, nil); code != http.StatusAccepted {
		t.Errorf("a small source after it: got %d, want 202", code)
	}
}

// TestNATSSync: the embedded server fsyncs as it is told.
func TestNATSSync(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		cfg    NATSConfig
		always bool
		every  time.Duration
	}{
		{NATSConfig{SyncAlways: true}, true, 0},
		{NATSConfig{SyncInterval: 10 * time.Second}, false, 10 * time.Second},
		{NATSConfig{}, false, 2 * time.Minute},
	} {
		tt.cfg.Dir = t.TempDir()
		ns, err := StartServer(tt.cfg)
		if err != nil {
			t.Fatal(err)
		}
		jc := ns.JetStreamConfig()
		ns.Shutdown()
		ns.WaitForShutdown()
		if jc.SyncAlways != tt.always || (!tt.always && jc.SyncInterval != tt.every) {
			t.Errorf("%+v: got always %v every %v, want %v %v", tt.cfg, jc.SyncAlways, jc.SyncInterval, tt.always, tt.every)
		}
		if jc.MaxStore < int64(store.DefaultLimits.Total()) {
			t.Errorf("%+v: JetStream's MaxStore %d leaves no room for the streams' limits (%d)", tt.cfg, jc.MaxStore, store.DefaultLimits.Total())
		}
	}
}
