package service

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/optjudge/optjudge/judge/service/store"
)

// Store is the service's records over the JetStream layout (package
// store): a submission's record, its judgings, reports and failures, the
// attempts in judge-progress (judging.go), the live workers.
//
// It holds the layout's handles by value: a copy of a Store (a test's with
// a faulty bucket) changes no other.
type Store struct{ store.Store }

// OpenStore creates (or updates) the layout, or binds it (store.Open), and
// returns the Store.
func OpenStore(ctx context.Context, nc *nats.Conn, cfg store.Config) (*Store, error) {
	st, err := store.Open(ctx, nc, cfg)
	if err != nil {
		return nil, err
	}
	return &Store{*st}, nil
}

// Submission reads a submission's record.
func (s *Store) Submission(ctx context.Context, id string) (*Submission, error) {
	var sub Submission
	if _, err := store.GetJSON(ctx, s.Submissions, id, &sub); err != nil {
		return nil, err
	}
	return &sub, nil
}

// Judging reads the judging of one request of a submission.
func (s *Store) Judging(ctx context.Context, id string, request int) (*Judging, error) {
	var j Judging
	if _, err := store.GetJSON(ctx, s.Judgings, judgingKey(id, request), &j); err != nil {
		return nil, err
	}
	return &j, nil
}

func judgingKey(id string, request int) string { return fmt.Sprintf("%s.%d", id, request) }

// liveWorkers lists the workers with a live heartbeat, by name.
func (s *Store) liveWorkers(ctx context.Context) ([]WorkerInfo, error) {
	keys, err := s.Workers.Keys(ctx)
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		return []WorkerInfo{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := []WorkerInfo{}
	for _, k := range keys {
		var wi WorkerInfo
		_, err := store.GetJSON(ctx, s.Workers, k, &wi)
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
