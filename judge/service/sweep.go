package service

import (
	"context"
	"encoding/json"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/optjudge/optjudge/judge/service/store"
)

// SweepEvery is how often the server looks for stranded submissions.
var SweepEvery = 15 * time.Second

// The server's part of the lifecycle: the sweeper, over the server's view
// of the records, and the watcher of JetStream's advisories.

// sweep repairs, every SweepEvery, the submissions nothing would grade:
// see sweepOnce.
func (lc *lifecycle) sweep(ctx context.Context) {
	t := time.NewTicker(SweepEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		lc.sweepOnce(ctx)
	}
}

// sweepOnce looks at the unfinished submissions whose record has not
// changed for 2 x AckWait (a grading changes it at least once an AckWait:
// each try marks it running) and repairs those that are stuck
// (lifecycle.rescue): the ones with no job in the stream (a republish
// failed; or the request's publication failed, or the server stopped
// before it: withdrawn), and the ones whose job was delivered but no live
// worker has it, the deliveries run out (JetStream will not deliver it
// again, and the advisory that says so went to nobody, or its republish
// failed on a full queue). The others cost one request each; fresh ones
// none. It waits for the view's first values: before them it knows no
// submission.
func (lc *lifecycle) sweepOnce(ctx context.Context) {
	if lc.view.check() != nil {
		return
	}
	stale := lc.view.stale(time.Now().Add(-2 * lc.st.AckWait))
	if len(stale) == 0 {
		return
	}
	js, err := lc.jobState(ctx)
	if err != nil {
		if ctx.Err() == nil {
			lc.log.Printf("sweeper: %v", err)
		}
		return
	}
	for _, sub := range stale {
		if err := lc.rescue(ctx, &sub, js); err != nil && ctx.Err() == nil {
			lc.log.Printf("sweeper: %s: %v", sub.ID, err)
		}
	}
}

// watchMaxDeliveries subscribes to the advisories of the jobs whose last
// delivery a worker did not answer (JetStream will not deliver them
// again) and hands each to exhausted. It is the quick way; the sweeper
// finds the ones whose advisory went to nobody.
func (lc *lifecycle) watchMaxDeliveries() (func(ctx context.Context), error) {
	subj := "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + store.JobsStream + "." + store.GradersConsumer
	ch := make(chan *nats.Msg, 64)
	sub, err := lc.st.NC.ChanSubscribe(subj, ch)
	if err != nil {
		return nil, err
	}
	return func(ctx context.Context) {
		defer sub.Unsubscribe()
		for {
			select {
			case <-ctx.Done():
				return
			case m := <-ch:
				var adv struct {
					StreamSeq uint64 `json:"stream_seq"`
				}
				if err := json.Unmarshal(m.Data, &adv); err != nil {
					lc.log.Printf("max deliveries: an advisory %q: %v (the sweeper finds its job)", m.Data, err)
					continue
				}
				if err := lc.exhausted(ctx, adv.StreamSeq); err != nil && ctx.Err() == nil {
					lc.log.Printf("max deliveries: message %d: %v", adv.StreamSeq, err)
				}
			}
		}
	}, nil
}
