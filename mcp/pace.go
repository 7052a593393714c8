package mcp

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// The JS thread's budget (docs/security.md, "Budgets"): under js/wasm every
// goroutine runs on the host's one thread, and while one computes no JS runs
// — no timer, no I/O, no other call. Worse, a body stream whose bytes are
// buffered already resolves each read as a microtask, so reading a flood
// never lets a macrotask in. Work a server can make us do in bulk (reading a
// large answer or a flood of events, checking and building the tools of a
// tools/list, a refresh) goes through pace points: once paceSlice of such
// work has run since the last pause, the goroutine sleeps pacePause. A Go
// timer under js is a JS setTimeout, and with nothing else runnable Go
// returns to the event loop until it fires: the host gets a turn at least
// every paceSlice, plus the one step that crossed it.
//
// A Go timer alone is not enough: when a microtask re-enters Go during the
// sleep (the next chunk of a buffered body, any other promise), Go runs
// every goroutine whose timer has expired before it returns, and the host's
// macrotasks still wait. So the wasm program sets the pause (SetPaceYield)
// to block until the host has run a macrotask of its own (jsbridge/mcpops:
// setImmediate, else setTimeout 0); without one a pause is a Go timer sleep
// of pacePause.
//
// The slice is global (one thread): after any pause every paced goroutine
// starts a new slice. Natively goroutines are preempted and no event loop
// waits, so paceSlice is 0 and a pace point is one comparison.

// paceSlice is the most paced work between two pauses (0: never pause).
var paceSlice = defaultPaceSlice()

// pacePause is how long a pause sleeps without a yield function.
var pacePause = time.Millisecond

// paceYield is the pause SetPaceYield set (nil: a pacePause sleep).
var paceYield atomic.Pointer[func()]

// SetPaceYield makes every pace point's pause call yield, which must block
// until the host's event loop has had a turn (a macrotask) and must not
// panic; nil restores the default, a Go timer sleep. The wasm program sets
// it once, before any MCP work; natively pace points never pause.
func SetPaceYield(yield func()) {
	if yield == nil {
		paceYield.Store(nil)
		return
	}
	paceYield.Store(&yield)
}

// defaultPaceSlice is 4 ms under js, 0 natively.
func defaultPaceSlice() time.Duration {
	if runtime.GOOS == "js" {
		return 4 * time.Millisecond
	}
	return 0
}

// paceClock is the start of the current slice and the count of pauses.
var paceClock struct {
	mu     sync.Mutex
	mark   time.Time
	pauses atomic.Int64
}

// pacer is the pace points of one run of work (a stream, a tool list): a
// slice starts at the latest of the global mark and the run's own start or
// last pause, so a run that has just begun does not pause for time other
// work spent. Make one with newPacer when the run begins.
type pacer struct {
	start  time.Time
	paused time.Duration // how long this run paused, in all
}

// newPacer is the pacer of a run that begins now.
func newPacer() pacer {
	if paceSlice <= 0 {
		return pacer{}
	}
	return pacer{start: time.Now()}
}

// step is a pace point: it pauses when the current slice has run
// paceSlice.
func (p *pacer) step() {
	if paceSlice <= 0 {
		return
	}
	now := time.Now()
	paceClock.mu.Lock()
	from := paceClock.mark
	paceClock.mu.Unlock()
	if p.start.After(from) {
		from = p.start
	}
	if now.Sub(from) < paceSlice {
		return
	}
	paceClock.pauses.Add(1)
	if y := paceYield.Load(); y != nil {
		(*y)()
	} else {
		time.Sleep(pacePause)
	}
	after := time.Now()
	paceClock.mu.Lock()
	if after.After(paceClock.mark) {
		paceClock.mark = after
	}
	paceClock.mu.Unlock()
	p.start = after
	p.paused += after.Sub(now)
}

// PacePauses counts the pauses pace points have made in this process, in
// every pool (JS: mcpStats().pacePauses).
func PacePauses() int64 {
	return paceClock.pauses.Load()
}

// pacedBytes is how many bytes of one body are read before its reads
// become pace points: a small answer never pauses.
const pacedBytes = 64 << 10
