package mcp

import (
	"context"
	"sync"
	"time"
)

// The notification byte budget (docs/security.md, "Budgets"): the
// notifications of one request's streams (its answer stream and any resume
// of it), and those of a connection's own stream (the standalone GET
// stream, the legacy transport's stream), share a token bucket of bytes:
// notifyBurstBytes at once, then notifyBytesPerSecond. A notification the
// bucket cannot pay for is still handled, but the stream is not read again
// until the bucket has refilled: a server that floods progress or log
// messages is read no faster than the budget, so the CPU it costs is
// bounded by bytes, not only by count (what the transport below buffers
// meanwhile is not: undici reads ahead). Waits are counted
// (NotificationsThrottled). The request's deadline (timeoutMs) still runs
// while it waits.

// notifyBurstBytes is how many bytes of notifications pass at full speed.
var notifyBurstBytes = 4 << 20

// notifyBytesPerSecond is the rate the budget refills at.
var notifyBytesPerSecond = 512 << 10

// notifyBudget is one token bucket of notification bytes. It is safe for
// concurrent use.
type notifyBudget struct {
	mu     sync.Mutex
	tokens float64
	last   time.Time
	primed bool
}

// take pays for n bytes and returns how long the stream should wait before
// it reads on (0: at once).
func (b *notifyBudget) take(n int, now time.Time) time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	burst, rate := float64(notifyBurstBytes), float64(notifyBytesPerSecond)
	if !b.primed {
		b.tokens, b.last, b.primed = burst, now, true
	}
	b.tokens = min(burst, b.tokens+now.Sub(b.last).Seconds()*rate)
	b.last = now
	b.tokens -= float64(n)
	if b.tokens >= 0 {
		return 0
	}
	return time.Duration(-b.tokens / rate * float64(time.Second))
}

// wait sleeps d unless ctx ends first.
func waitBudget(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
