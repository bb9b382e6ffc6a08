package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/nats-io/nats.go/jetstream"
)

// GetJSON reads a key into v; the revision lets the caller update it.
func GetJSON(ctx context.Context, kv jetstream.KeyValue, key string, v any) (uint64, error) {
	e, err := kv.Get(ctx, key)
	if err != nil {
		return 0, err
	}
	if err := json.Unmarshal(e.Value(), v); err != nil {
		return 0, fmt.Errorf("%s/%s: %w", kv.Bucket(), key, err)
	}
	return e.Revision(), nil
}

// ErrNoChange tells Update that f left the value alone.
var ErrNoChange = errors.New("no change")

// Update applies f to the value of key and writes it back if no one else
// wrote in between, trying again if someone did. f returning ErrNoChange
// writes nothing; a missing key is jetstream.ErrKeyNotFound.
func Update[T any](ctx context.Context, kv jetstream.KeyValue, key string, f func(*T) error) (*T, error) {
	for {
		var v T
		rev, err := GetJSON(ctx, kv, key, &v)
		if err != nil {
			return nil, err
		}
		if err := f(&v); err != nil {
			if errors.Is(err, ErrNoChange) {
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
		if !IsWrongRevision(err) {
			return nil, err
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
}

// IsWrongRevision says whether a write lost to another (its revision is
// not the last).
func IsWrongRevision(err error) bool {
	var apiErr *jetstream.APIError
	return errors.As(err, &apiErr) && (apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence ||
		apiErr.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequenceConstant)
}

// PutJSON writes v at key.
func PutJSON(ctx context.Context, kv jetstream.KeyValue, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = kv.Put(ctx, key, b)
	return err
}

// CreateJSON writes key only if it does not exist; an existing key is
// jetstream.ErrKeyExists.
func CreateJSON(ctx context.Context, kv jetstream.KeyValue, key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = kv.Create(ctx, key, b)
	return err
}

// IsFull says whether a write was refused because its stream is at
// its MaxBytes.
func IsFull(err error) bool {
	var apiErr *jetstream.APIError
	// JSStreamStoreFailedF (10077) "maximum bytes exceeded": DiscardNew
	// at MaxBytes
	return errors.As(err, &apiErr) && apiErr.ErrorCode == 10077 && strings.Contains(apiErr.Description, "maximum bytes")
}

// IsQueueFull says whether a job was refused because the queue is at
// QueueLimit.
func IsQueueFull(err error) bool {
	var apiErr *jetstream.APIError
	// JSStreamStoreFailedF (10077) "maximum messages exceeded": DiscardNew
	// at MaxMsgs
	return errors.As(err, &apiErr) && apiErr.ErrorCode == 10077 && strings.Contains(apiErr.Description, "maximum messages")
}
